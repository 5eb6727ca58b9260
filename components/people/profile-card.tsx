import { useEffect, useState } from 'react';
import type { UserSummary } from '@/lib/contract';
import { useProfile, useProfileStatus, usePeopleStore } from '@/lib/stores/people-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import buttons from '@/components/ui/button.module.css';
import { BlockButton } from './block-button';
import { FollowButton, FollowChips } from './follow-button';
import { ReportDialog } from './report-dialog';
import styles from './people.module.css';

interface Props {
  id?: string;
  peer: UserSummary;
  name: string;
}

/** A person's card: face, name, how they relate to you, and their follower counts. */
export function ProfileCard({ id, peer, name }: Props) {
  const t = useT();
  const profile = useProfile(peer.id);
  const status = useProfileStatus(peer.id);
  const [reporting, setReporting] = useState(false);

  useEffect(() => {
    void usePeopleStore.getState().loadProfile(peer.id);
  }, [peer.id]);

  return (
    <section id={id} className={styles.card} aria-label={t('people.viewProfile')}>
      <div className={styles.cardHead}>
        <Avatar name={name} src={peer.avatar} size={64} />
        <div className={styles.cardText}>
          <p className={styles.cardName}>{name}</p>
          <FollowChips user={peer} />
          {profile ? (
            <p className={styles.counts}>
              <span>{t('people.followerCount', { count: profile.followers_count })}</span>
              <span aria-hidden="true"> · </span>
              <span>{t('people.followingCount', { count: profile.following_count })}</span>
            </p>
          ) : status === 'error' ? (
            <p className={styles.error}>{t('people.profileFailed')}</p>
          ) : (
            <Spinner label={t('common.loading')} />
          )}
        </div>
      </div>
      {/* Under the name, so a long name keeps its line and the buttons theirs, on any width. */}
      <div className={styles.cardActions}>
        {profile?.blocked ? null : <FollowButton user={peer} name={name} />}
        {profile ? (
          <>
            <BlockButton user={peer} name={name} blocked={profile.blocked} />
            <button type="button" className={`${buttons.button} ${buttons.small}`} aria-label={t('safety.reportUser', { name })} onClick={() => setReporting(true)}>
              {t('safety.report')}
            </button>
          </>
        ) : null}
      </div>
      {reporting ? <ReportDialog target={{ userId: peer.id }} name={name} onClose={() => setReporting(false)} /> : null}
    </section>
  );
}
