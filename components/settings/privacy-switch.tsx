import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { useT } from '@/lib/i18n';
import styles from './settings.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

interface Props {
  /** The section's heading; without one the section is named by `label`. */
  title?: string;
  label: string;
  hint: string;
  checked: boolean;
  /** Saves the new value; a rejection is shown in the section's status line. */
  save: (on: boolean) => Promise<unknown>;
}

/** A privacy setting that is on or off: the switch, what it means, and whether saving it worked. */
export function PrivacySwitch({ title, label, hint, checked, save }: Props) {
  const t = useT();
  const id = useId();
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });

  async function change(on: boolean) {
    setSaving({ state: 'saving' });
    try {
      await save(on);
      setSaving({ state: 'saved' });
    } catch (error) {
      setSaving({ state: 'failed', message: errorMessage(error) });
    }
  }

  const naming = title ? { 'aria-labelledby': `${id}-title` } : { 'aria-label': label };
  return (
    <section className={styles.section} {...naming} aria-busy={saving.state === 'saving'}>
      {title && <h3 id={`${id}-title`}>{title}</h3>}
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={checked}
          disabled={saving.state === 'saving'}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
        <span>{label}</span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        {hint}
      </p>
      <p className={styles.hint} role="status">
        {saving.state === 'saved' ? t('settings.privacySaved') : null}
        {saving.state === 'failed' ? t('settings.privacyFailed', { message: saving.message }) : null}
      </p>
    </section>
  );
}
