import { messageKey, type ThreadMessage } from '@/lib/stores/thread-messages';
import { useThreadStore } from '@/lib/stores/thread-store';
import { retryMessage } from '@/lib/realtime/messaging-session';
import { refusalText } from '@/lib/realtime/send-refusal';
import { useT } from '@/lib/i18n';
import styles from './failed-status.module.css';

/**
 * A message that did not go: why, and what can be done. Refused for good (a block, the person's
 * "who can message me", a deleted account, too long a text): the reason and Remove, since asking
 * again would be refused again. Otherwise (the session ended before it went): Retry.
 */
export function FailedStatus({ message }: { message: ThreadMessage }) {
  const t = useT();
  const { refusal } = message;
  if (refusal) {
    return (
      <span className={styles.failed}>
        <span>{t('thread.failedWithReason', { message: refusalText(refusal, t) })}</span>
        <button
          type="button"
          className={styles.retry}
          aria-label={t('thread.removeFailed')}
          onClick={() => useThreadStore.getState().removeLocal(message.recipient_id, messageKey(message))}
        >
          {t('thread.remove')}
        </button>
      </span>
    );
  }
  return (
    <span className={styles.failed}>
      <span>{message.error ? t('thread.failedWithReason', { message: message.error }) : t('thread.failed')}</span>
      <button type="button" className={styles.retry} onClick={() => void retryMessage(message.client_id)}>
        {t('thread.retry')}
      </button>
    </span>
  );
}
