import { memo } from 'react';
import type { ThreadMessage } from '@/lib/stores/thread-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useT } from '@/lib/i18n';
import { formatClock, formatFull, parseTime } from './time-format';
import styles from './thread.module.css';

interface Props {
  message: ThreadMessage;
  own: boolean;
  language: string;
  /** Follows a message from the same sender: drawn closer to it. */
  continued?: boolean;
}

/** Where the user's own message is: on its way, delivered, or failed with a way to try again. */
export function MessageStatus({ message }: { message: ThreadMessage }) {
  const t = useT();
  const retryMessage = useThreadStore((state) => state.retryMessage);

  if (message.status === 'sending') return <span className={styles.status}>{t('thread.sending')}</span>;
  if (message.status === 'sent') return <span className={styles.status}>{t('thread.sent')}</span>;
  return (
    <span className={styles.failed}>
      <span>{message.error ? t('thread.failedWithReason', { message: message.error }) : t('thread.failed')}</span>
      <button type="button" className={styles.retry} onClick={() => void retryMessage(message.client_id)}>
        {t('thread.retry')}
      </button>
    </span>
  );
}

/** One message. Its text is React text, never HTML: whatever someone typed shows as typed. */
export const MessageItem = memo(function MessageItem({ message, own, language, continued = false }: Props) {
  const t = useT();
  const time = parseTime(message.created_at);
  const attachment = message.attachment;

  return (
    <div className={styles.message} data-own={own} data-status={message.status} data-continued={continued}>
      <div className={styles.bubble}>
        {message.text ? <p className={styles.text}>{message.text}</p> : null}
        {attachment ? (
          // Uploads are a later piece of work: for now a received file is at least reachable.
          <a className={styles.file} href={attachment.url} download={attachment.name} rel="noopener">
            {t('thread.download', { name: attachment.name })}
          </a>
        ) : null}
      </div>
      <div className={styles.meta}>
        {time ? (
          <time dateTime={message.created_at} title={formatFull(time, language)}>
            {formatClock(time, language)}
          </time>
        ) : null}
        {own ? <MessageStatus message={message} /> : null}
      </div>
    </div>
  );
});
