import { useId, useState, type FormEvent } from 'react';
import { MAX_DISPLAY_NAME_LENGTH } from '@/lib/contract';
import { checkDisplayName, saveDisplayName } from '@/lib/profile/profile';
import { useCurrentUser } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import { AvatarEditor } from './avatar-editor';
import styles from './settings.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; error: string };

/** The name and photo other people see; the email stays the provider's and private. */
export function ProfileSection() {
  const t = useT();
  const id = useId();
  const user = useCurrentUser();
  const saved = user?.username ?? '';
  // Null until the user types: the field shows the saved name, also when another tab changes it.
  const [typed, setTyped] = useState<string | null>(null);
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });
  const value = typed ?? saved;
  const checked = checkDisplayName(value);
  const problem = typed !== null && !checked.ok ? checked.problem : null;
  const unchanged = checked.ok && checked.name === saved;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!checked.ok || unchanged) return;
    setSaving({ state: 'saving' });
    const result = await saveDisplayName(checked.name);
    if (result.ok) {
      setTyped(null);
      setSaving({ state: 'saved' });
    } else {
      setSaving({ state: 'failed', error: 'error' in result ? result.error : '' });
    }
  }

  const describedBy = [problem ? `${id}-problem` : null, `${id}-hint`].filter(Boolean).join(' ');
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('profile.title')}</h3>
      <AvatarEditor name={saved || user?.email || t('common.you')} />
      <form className={styles.nameForm} onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={`${id}-name`} className={styles.fieldLabel}>
          {t('profile.displayName')}
        </label>
        <div className={styles.row}>
          <input
            id={`${id}-name`}
            className={styles.textInput}
            value={value}
            autoComplete="name"
            spellCheck={false}
            // Room for invisible characters that cleaning removes; the check below counts what stays.
            maxLength={MAX_DISPLAY_NAME_LENGTH * 2}
            aria-invalid={problem !== null}
            aria-describedby={describedBy}
            onChange={(event) => {
              setTyped(event.target.value);
              setSaving({ state: 'idle' });
            }}
          />
          <button
            type="submit"
            className={`${buttons.button} ${buttons.primary}`}
            disabled={!checked.ok || unchanged || saving.state === 'saving'}
            aria-busy={saving.state === 'saving'}
          >
            {t('profile.saveName')}
          </button>
        </div>
        {problem ? (
          <p id={`${id}-problem`} className={styles.fieldError}>
            {problem === 'empty' ? t('profile.nameEmpty') : t('profile.nameTooLong', { max: MAX_DISPLAY_NAME_LENGTH })}
          </p>
        ) : null}
        <p id={`${id}-hint`} className={styles.hint}>
          {saved ? t('profile.nameHint') : t('profile.noNameHint', { unknown: t('common.unknownUser') })}
        </p>
        <p className={modal.status} role="status">
          {saving.state === 'saved' ? t('profile.nameSaved') : ''}
        </p>
        <p className={modal.error} role="alert">
          {saving.state === 'failed' ? t('profile.nameFailed', { message: saving.error }) : ''}
        </p>
      </form>
    </section>
  );
}
