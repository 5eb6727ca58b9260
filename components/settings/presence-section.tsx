import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { useT } from '@/lib/i18n';
import { setShowPresence } from '@/lib/realtime/presence-setting';
import { useSessionStore } from '@/lib/stores/session-store';
import styles from './settings.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

/** Whether others see when the user is online and was last seen (and so the user theirs). */
export function PresenceSection() {
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
    <section className={styles.section} aria-labelledby={`${id}-title`} aria-busy={saving.state === 'saving'}>
      <h3 id={`${id}-title`}>{t('settings.onlineStatus')}</h3>
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={shown}
          disabled={saving.state === 'saving'}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
        <span>{t('settings.showPresence')}</span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        {t('settings.showPresenceHint')}
      </p>
      <p className={styles.hint} role="status">
        {saving.state === 'saved' ? t('settings.privacySaved') : null}
        {saving.state === 'failed' ? t('settings.privacyFailed', { message: saving.message }) : null}
      </p>
    </section>
  );
}
