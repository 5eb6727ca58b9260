import { useId, useState } from 'react';
import type { UserSummary } from '@/lib/contract';
import { closeConversation } from '@/lib/routing/conversation-route';
import { useConversationMuted } from '@/lib/stores/conversations-store';
import { useProfile } from '@/lib/stores/people-store';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { BackIcon, BellIcon, BellOffIcon } from '@/components/ui/icons';
import { FollowButton } from '@/components/people/follow-button';
import { ProfileCard } from '@/components/people/profile-card';
import { PresenceLine } from './presence-line';
import buttons from '@/components/ui/button.module.css';
import styles from './thread-header.module.css';

interface Props {
  peerId: number;
  peer: UserSummary | null;
  name: string;
}

/**
 * Who the conversation is with: back (phone), their face and name (opens their card), whether
 * they are typing, online or when they were last seen, follow.
 */
export function ThreadHeader({ peerId, peer, name }: Props) {
  const t = useT();
  const id = useId();
  const [cardOpen, setCardOpen] = useState(false);
  // Null until the conversation has a first message: there is nothing to mute yet.
  const muted = useConversationMuted(peer?.id ?? 0);
  // Someone the user blocked cannot be followed (the block ended the follows): no button for it.
  const blocked = useProfile(peerId)?.blocked === true;
  const [muteError, setMuteError] = useState<string | null>(null);

  async function toggleMute() {
    if (!peer || muted === null) return;
    setMuteError(null);
    const result = await useSafetyStore.getState().setMuted(peer.id, !muted);
    if (!result.ok) setMuteError(result.error);
  }

  return (
    <div
      className={styles.headerWrap}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && cardOpen) setCardOpen(false);
      }}
    >
      <header className={styles.header}>
        <button
          type="button"
          className={`${buttons.button} ${buttons.icon} ${styles.back}`}
          aria-label={t('header.backToConversations')}
          onClick={closeConversation}
        >
          <BackIcon />
        </button>
        <div className={styles.heading}>
          <h2 className={styles.headingTitle}>
          <button
            type="button"
            className={styles.peer}
            aria-expanded={cardOpen}
            aria-controls={cardOpen ? `${id}-card` : undefined}
            title={t('people.viewProfile')}
            onClick={() => setCardOpen(!cardOpen)}
          >
            <Avatar name={name} src={peer?.avatar ?? null} size={36} />
            <span className={styles.peerName}>{name}</span>
          </button>
          </h2>
          <PresenceLine peerId={peerId} name={name} />
        </div>
        {muted !== null ? (
          <button
            type="button"
            className={`${buttons.button} ${buttons.icon}`}
            aria-pressed={muted}
            aria-label={muted ? t('safety.unmute') : t('safety.mute')}
            title={muted ? t('safety.unmute') : t('safety.mute')}
            onClick={() => void toggleMute()}
          >
            {muted ? <BellOffIcon /> : <BellIcon />}
          </button>
        ) : null}
        {/* The open card has its own (with the counts it changes): one Follow button at a time. */}
        {peer && !peer.deleted && !blocked && !cardOpen ? <FollowButton user={peer} name={name} compact /> : null}
      </header>
      {muteError ? (
        <p className={styles.headerError} role="alert">
          {t('safety.muteFailed', { message: muteError })}
        </p>
      ) : null}
      {cardOpen && peer && !peer.deleted ? (
        <div className={styles.cardWrap}>
          <ProfileCard id={`${id}-card`} peer={peer} name={name} />
        </div>
      ) : null}
    </div>
  );
}
