import { useId, useState } from 'react';
import type { Conversation, MessagePayload } from '@/lib/contract';
import type { OfflineThread } from '@/lib/offline/offline-snapshot';
import type { OutboxEntry } from '@/lib/outbox/outbox-storage';
import { useLanguage, useT, type TFunction } from '@/lib/i18n';
import styles from './offline-history.module.css';

interface Props {
  userId: number;
  conversations: Conversation[];
  /** The kept threads, by the person they are with. */
  threads: Record<number, OfflineThread>;
  /** What waits to be sent, shown at the end of its conversation. */
  unsent: OutboxEntry[];
  /** The conversation to show first (the address's). */
  initialPeer: number | null;
}

function formatTime(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/** What a message says, as a line: its text, else its file, else that it was deleted. */
function say(message: Pick<MessagePayload, 'text' | 'attachment'> & { deleted?: boolean }, t: TFunction): string {
  if (message.deleted) return t('conversations.lastMessageDeleted');
  return message.text.trim() !== '' ? message.text : (message.attachment?.name ?? '');
}

/**
 * The conversation list and the conversations opened most recently, as this device last saw them,
 * while Parley waits for the network (offline-start.tsx): read only, and possibly out of date.
 */
export function OfflineHistory({ userId, conversations, threads, unsent, initialPeer }: Props) {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const [open, setOpen] = useState<number | null>(initialPeer);
  const nameOf = (row: Conversation | undefined) => row?.user.username || t('common.unknownUser');
  const openRow = conversations.find((row) => row.user.id === open);
  const thread = open === null ? undefined : threads[open];
  const waiting = unsent.filter((entry) => entry.recipient_id === open);

  return (
    <>
      <section aria-labelledby={`${id}-list`} className={styles.section}>
        <h2 id={`${id}-list`} className={styles.heading}>
          {t('connection.offlineConversations')}
        </h2>
        <ul className={styles.rows}>
          {conversations.map((row) => {
            const mine = row.last_message.sender_id === userId;
            return (
              <li key={row.user.id}>
                <button type="button" className={styles.row} aria-pressed={open === row.user.id} onClick={() => setOpen(row.user.id)}>
                  <span className={styles.name}>{nameOf(row)}</span>
                  <span className={styles.preview}>
                    {mine ? `${t('common.you')}: ` : ''}
                    {say(row.last_message, t)}
                  </span>
                  <span className={styles.time}>{formatTime(row.last_message.created_at, language)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      {open !== null ? (
        <section aria-labelledby={`${id}-thread`} className={styles.section}>
          <h2 id={`${id}-thread`} className={styles.heading}>
            {t('thread.title', { name: nameOf(openRow) })}
          </h2>
          {thread ? (
            <ol className={styles.messages}>
              {thread.messages.map((message) => (
                <li key={message.id} data-own={message.sender_id === userId}>
                  <span className={styles.sender}>{message.sender_id === userId ? t('common.you') : nameOf(openRow)}</span>
                  <span className={styles.text}>{say(message, t)}</span>
                  <span className={styles.time}>{formatTime(message.created_at, language)}</span>
                </li>
              ))}
              {waiting.map((entry) => (
                <li key={entry.client_id} data-own="true">
                  <span className={styles.sender}>{t('common.you')}</span>
                  <span className={styles.text}>{say(entry, t)}</span>
                  <span className={styles.time}>{t('thread.waiting')}</span>
                </li>
              ))}
            </ol>
          ) : (
            <p className={styles.note}>{t('connection.offlineNotKept')}</p>
          )}
        </section>
      ) : null}
    </>
  );
}
