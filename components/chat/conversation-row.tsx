import { memo, useEffect, useMemo } from 'react';
import type { Conversation, MessagePayload } from '@/lib/contract';
import { useThreadMessages } from '@/lib/stores/thread-store';
import { hoverIntent } from '@/lib/realtime/prefetch';
import { useT } from '@/lib/i18n';
import { usePeer } from '@/components/people/use-peer';
import { Avatar } from '@/components/ui/avatar';
import { BellOffIcon } from '@/components/ui/icons';
import { formatFull, formatRelative, parseTime } from './time-format';
import styles from './conversations.module.css';

interface Props {
  conversation: Conversation;
  me: number | null;
  selected: boolean;
  now: Date;
  language: string;
  /** They are online and the user may see it: a dot on the avatar. */
  online: boolean;
  /** They are typing to the user: said in place of the last message. */
  typing: boolean;
  onOpen: (peerId: number) => void;
}

type T = ReturnType<typeof useT>;

/** One line of the last message: "You: …" for the user's own, a word for a file without text. */
function previewOf(message: Pick<MessagePayload, 'text' | 'deleted' | 'attachment' | 'sender_id'>, me: number | null, t: T): string {
  const text = message.text.replace(/\s+/g, ' ').trim();
  const content = message.deleted
    ? t('conversations.lastMessageDeleted')
    : text ||
    (message.attachment?.mime_type.startsWith('image/') ? t('conversations.lastMessagePhoto') : t('conversations.lastMessageAttachment'));
  return message.sender_id === me ? t('conversations.lastMessageYou', { text: content }) : content;
}

export const ConversationRow = memo(function ConversationRow({ conversation, me, selected, now, language, online, typing, onOpen }: Props) {
  const t = useT();
  const { user, unread_count: unread } = conversation;
  const name = user.deleted ? t('safety.deletedAccount') : user.username || t('common.unknownUser');
  const time = parseTime(conversation.last_message.created_at);
  // Its accessible name is its content, read in order: who, when, what they last said, and how
  // many are unread (the digits are for the eye; the sentence is for assistive technology).
  const preview = previewOf(conversation.last_message, me, t);
  // Resting on the row (pointer or keyboard focus) fetches its conversation's first page.
  const intent = useMemo(() => hoverIntent(user.id), [user.id]);
  useEffect(() => intent.onPointerLeave, [intent]);

  return (
    <li>
      <button
        type="button"
        className={styles.row}
        data-row=""
        data-unread={unread > 0}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onOpen(user.id)}
        onPointerEnter={intent.onPointerEnter}
        onPointerLeave={intent.onPointerLeave}
        onFocus={intent.onPointerEnter}
        onBlur={intent.onPointerLeave}
      >
        <span className={styles.avatarWrap}>
          <Avatar name={name} src={user.avatar} size={48} />
          {online ? <span className={styles.onlineDot} aria-hidden="true" /> : null}
        </span>
        <span className={styles.rowText}>
          <span className={styles.rowTop}>
            <span className={styles.rowName}>{name}</span>{' '}
            {conversation.muted ? (
              <span className={styles.muted} title={t('safety.muted')}>
                <BellOffIcon size={14} />
                <span className="visually-hidden">{t('safety.muted')}</span>
              </span>
            ) : null}
            {online ? <span className="visually-hidden">{` ${t('presence.online')}`}</span> : null}
            {time ? (
              <time className={styles.rowTime} dateTime={conversation.last_message.created_at} title={formatFull(time, language)}>
                {formatRelative(time, now, language)}
              </time>
            ) : null}
          </span>{' '}
          <span className={styles.rowBottom}>
            {typing ? (
              <span className={`${styles.preview} ${styles.typing}`}>{t('conversations.typing')}</span>
            ) : (
              <span className={styles.preview}>{preview}</span>
            )}{' '}
            {unread > 0 ? (
              <span className={styles.badge} data-muted={conversation.muted}>
                <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
                <span className="visually-hidden">{t('conversations.unreadBadge', { count: unread })}</span>
              </span>
            ) : null}
          </span>
        </span>
      </button>
    </li>
  );
});

/**
 * The open conversation when the list has no row for it: someone not written to yet ("New
 * conversation"), or one the list left out (the person was just blocked), with its last message.
 */
export function NewConversationRow({ peerId, me }: { peerId: number; me: number | null }) {
  const t = useT();
  const peer = usePeer(peerId);
  const name = peer?.deleted ? t('safety.deletedAccount') : peer?.username || t('common.unknownUser');
  const messages = useThreadMessages(peerId);
  const last = messages.findLast((message) => message.id !== null) ?? null;
  return (
    <li>
      <button type="button" className={styles.row} data-row="" aria-current="true">
        <Avatar name={name} src={peer?.avatar ?? null} size={48} />
        <span className={styles.rowText}>
          <span className={styles.rowTop}>
            <span className={styles.rowName}>{name}</span>
          </span>{' '}
          <span className={styles.rowBottom}>
            <span className={styles.preview}>{last ? previewOf(last, me, t) : t('conversations.newConversation')}</span>
          </span>
        </span>
      </button>
    </li>
  );
}
