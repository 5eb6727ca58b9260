'use client';

import { useT } from '@/lib/i18n';
import { dismissNotificationPrompt, enableDesktopNotifications } from '@/lib/notifications/desktop-notifications';
import { selectPromptShown, useNotificationStore } from '@/lib/stores/notification-store';
import buttons from '@/components/ui/button.module.css';
import styles from './notifications.module.css';

/**
 * Offers desktop notifications, only while the browser has not been asked yet and until dismissed:
 * the browser's own permission dialog opens from the button, never by itself.
 */
export function NotificationPrompt() {
  const t = useT();
  const shown = useNotificationStore(selectPromptShown);
  const busy = useNotificationStore((state) => state.busy);
  if (!shown) return null;
  return (
    <section className={styles.prompt} aria-labelledby="notification-prompt-title">
      <div className={styles.promptText}>
        <h2 id="notification-prompt-title" className={styles.promptTitle}>
          {t('notifications.promptTitle')}
        </h2>
        <p className={styles.promptBody}>{t('notifications.promptBody')}</p>
      </div>
      <div className={styles.promptActions}>
        <button
          type="button"
          className={`${buttons.button} ${buttons.primary}`}
          disabled={busy}
          aria-busy={busy}
          onClick={() => void enableDesktopNotifications()}
        >
          {t('notifications.promptEnable')}
        </button>
        <button type="button" className={buttons.button} onClick={() => void dismissNotificationPrompt()}>
          {t('notifications.promptDismiss')}
        </button>
      </div>
    </section>
  );
}
