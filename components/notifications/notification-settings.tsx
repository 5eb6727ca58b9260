'use client';

import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { NOTIFICATION_PREVIEWS, type NotificationPreview } from '@/lib/contract';
import { useT, type TranslationKey } from '@/lib/i18n';
import { disableDesktopNotifications, enableDesktopNotifications } from '@/lib/notifications/desktop-notifications';
import { saveNotificationSettings } from '@/lib/notifications/notification-settings';
import { selectNotificationsOn, useNotificationStore } from '@/lib/stores/notification-store';
import { useSessionStore } from '@/lib/stores/session-store';
import styles from './notifications.module.css';

const PREVIEW_LABELS: Record<NotificationPreview, TranslationKey> = {
  text: 'notifications.previewText',
  sender: 'notifications.previewSender',
  none: 'notifications.previewNone',
};

type Saving = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; message: string };

/** The settings' notifications part: this browser's switch, then the account's preview and sound. */
export function NotificationSettings() {
  const t = useT();
  const id = useId();
  const on = useNotificationStore(selectNotificationsOn);
  const permission = useNotificationStore((state) => state.permission);
  const busy = useNotificationStore((state) => state.busy);
  const preview = useSessionStore((state) => state.user?.notification_preview ?? 'text');
  const sound = useSessionStore((state) => state.user?.notification_sound ?? true);
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
  return (
    <fieldset className={styles.settings} aria-busy={saving.state === 'saving' || busy}>
      <legend className={styles.legend}>{t('notifications.settingsTitle')}</legend>
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
        {permission === 'denied'
          ? t('notifications.blocked')
          : permission === 'unsupported'
            ? t('notifications.unsupported')
            : t('notifications.desktopHint')}
      </p>
      <fieldset className={styles.group} aria-describedby={`${id}-preview-hint`}>
        <legend className={styles.subLegend}>{t('notifications.preview')}</legend>
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
          onChange={(event) => void save({ notification_sound: event.target.checked })}
        />
        <span>{t('notifications.sound')}</span>
      </label>
      <p id={`${id}-preview-hint`} className={styles.hint}>
        {t('notifications.previewHint')}
      </p>
      <p className={styles.status} data-state={saving.state} role="status">
        {saving.state === 'saved' ? t('notifications.saved') : null}
        {saving.state === 'failed' ? t('notifications.saveFailed', { message: saving.message }) : null}
      </p>
    </fieldset>
  );
}
