import { useId, useState } from 'react';
import { errorMessage } from '@/lib/contract/error-message';
import { DEFAULT_NOTIFICATION_PREVIEW, NOTIFICATION_PREVIEWS, type NotificationPreview } from '@/lib/contract';
import { useT, type TranslationKey } from '@/lib/i18n';
import { disableDesktopNotifications, enableDesktopNotifications } from '@/lib/notifications/desktop-notifications';
import { saveNotificationSettings } from '@/lib/notifications/notification-settings';
import { selectNotificationsOn, useNotificationStore } from '@/lib/stores/notification-store';
import { useCurrentUser } from '@/lib/stores/session-store';
import modal from '@/components/ui/modal.module.css';
import styles from './settings.module.css';

const PREVIEW_LABELS: Record<NotificationPreview, TranslationKey> = {
  text: 'notifications.previewText',
  sender: 'notifications.previewSender',
  none: 'notifications.previewNone',
};

type Saving = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; message: string };

/**
 * Notifications: desktop notifications on this browser (its permission and the person's switch),
 * then the account's choices, which every device follows: what a notification shows, and sound.
 */
export function NotificationsSection() {
  const t = useT();
  const id = useId();
  const on = useNotificationStore(selectNotificationsOn);
  const permission = useNotificationStore((state) => state.permission);
  const busy = useNotificationStore((state) => state.busy);
  const user = useCurrentUser();
  const preview = user?.notification_preview ?? DEFAULT_NOTIFICATION_PREVIEW;
  const sound = user?.notification_sound ?? true;
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });

  async function save(changes: Parameters<typeof saveNotificationSettings>[0]) {
    setSaving({ state: 'saving' });
    try {
      await saveNotificationSettings(changes);
      setSaving({ state: 'saved' });
    } catch (error) {
      setSaving({ state: 'failed', message: errorMessage(error) });
    }
  }

  const unavailable = permission === 'unsupported' || permission === 'denied';
  const desktopHint =
    permission === 'denied' ? 'notifications.blocked' : permission === 'unsupported' ? 'notifications.unsupported' : 'notifications.desktopHint';
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`} aria-busy={saving.state === 'saving' || busy}>
      <h3 id={`${id}-title`}>{t('notifications.settingsTitle')}</h3>
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={on}
          disabled={unavailable || busy}
          aria-describedby={`${id}-desktop-hint`}
          onChange={(event) => void (event.target.checked ? enableDesktopNotifications() : disableDesktopNotifications())}
        />
        <span>{t('notifications.desktop')}</span>
      </label>
      <p id={`${id}-desktop-hint`} className={styles.hint}>
        {t(desktopHint)}
      </p>
      <fieldset className={styles.options} aria-describedby={`${id}-preview-hint`}>
        <legend className={styles.legend}>{t('notifications.preview')}</legend>
        {NOTIFICATION_PREVIEWS.map((option) => (
          <label key={option} className={styles.option}>
            <input
              type="radio"
              name={`${id}-preview`}
              value={option}
              checked={preview === option}
              disabled={saving.state === 'saving'}
              onChange={() => void save({ notification_preview: option })}
            />
            <span>{t(PREVIEW_LABELS[option])}</span>
          </label>
        ))}
      </fieldset>
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={sound}
          disabled={saving.state === 'saving'}
          aria-describedby={`${id}-preview-hint`}
          onChange={(event) => void save({ notification_sound: event.target.checked })}
        />
        <span>{t('notifications.sound')}</span>
      </label>
      <p id={`${id}-preview-hint`} className={styles.hint}>
        {t('notifications.previewHint')}
      </p>
      <p className={modal.status} role="status">
        {saving.state === 'saved' ? t('notifications.saved') : ''}
      </p>
      <p className={modal.error} role="alert">
        {saving.state === 'failed' ? t('notifications.saveFailed', { message: saving.message }) : ''}
      </p>
    </section>
  );
}
