import { useEffect } from 'react';
import type { UserSummary } from '@/lib/contract';
import { useProfile, useProfileStatus, usePeopleStore } from '@/lib/stores/people-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import { FollowButton, FollowChips } from './follow-button';
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

  useEffect(() => {
    void usePeopleStore.getState().loadProfile(peer.id);
  }, [peer.id]);

  return (
    <section id={id} className={styles.card} aria-label={t('people.viewProfile')}>
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
      <FollowButton user={peer} name={name} />
    </section>
  );
}
