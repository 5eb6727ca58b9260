import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { useT } from '@/lib/i18n';
import { setShowPresence } from '@/lib/realtime/presence-setting';
import { useSessionStore } from '@/lib/stores/session-store';
import styles from './header.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

/** The settings menu's privacy part: whether others see when the user is online (and so the user theirs). */
export function PrivacySetting() {
  const t = useT();
  const id = useId();
  const shown = useSessionStore((state) => state.user?.show_presence ?? true);
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });

  async function change(show: boolean) {
    setSaving({ state: 'saving' });
    try {
      await setShowPresence(show);
      setSaving({ state: 'saved' });
    } catch (error) {
      setSaving({ state: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <fieldset className={`${styles.languages} ${styles.settingsSection}`} aria-busy={saving.state === 'saving'} aria-describedby={`${id}-hint`}>
      <legend className={styles.legend}>{t('settings.privacy')}</legend>
      <label className={styles.languageOption}>
        <input
          type="checkbox"
          checked={shown}
          disabled={saving.state === 'saving'}
          onChange={(event) => void change(event.target.checked)}
        />
        <span>{t('settings.showPresence')}</span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        {t('settings.showPresenceHint')}
      </p>
      <p className={styles.saveStatus} data-state={saving.state} role="status">
        {saving.state === 'saved' ? t('settings.privacySaved') : null}
        {saving.state === 'failed' ? t('settings.privacyFailed', { message: saving.message }) : null}
      </p>
    </fieldset>
  );
}
