import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { updateSettings } from '@/lib/api/accounts';
import { useT } from '@/lib/i18n';
import { useSessionStore } from '@/lib/stores/session-store';
import styles from './settings.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

/** Whether the people the user writes with see when the user read their messages (and the user theirs). */
export function ReadReceiptsSection() {
  const t = useT();
  const id = useId();
  const on = useSessionStore((state) => state.user?.read_receipts ?? true);
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });

  async function change(readReceipts: boolean) {
    setSaving({ state: 'saving' });
    try {
      useSessionStore.getState().publishUser(await updateSettings({ read_receipts: readReceipts }));
      setSaving({ state: 'saved' });
    } catch (error) {
      setSaving({ state: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <section className={styles.section} aria-label={t('settings.readReceipts')} aria-busy={saving.state === 'saving'}>
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={on}
          disabled={saving.state === 'saving'}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
        <span>{t('settings.readReceipts')}</span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        {t('settings.readReceiptsHint')}
      </p>
      <p className={styles.hint} role="status">
        {saving.state === 'saved' ? t('settings.privacySaved') : null}
        {saving.state === 'failed' ? t('settings.privacyFailed', { message: saving.message }) : null}
      </p>
    </section>
  );
}
