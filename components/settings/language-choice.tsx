import { useId, useState } from 'react';
import { errorMessage } from '@/lib/contract/error-message';
import { SUPPORTED_LANGUAGES, type Language } from '@/lib/contract';
import { normalizeLanguage, useT, useLanguage } from '@/lib/i18n';
import { setLanguage } from '@/lib/lifecycle/user-language';
import styles from './language-choice.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

/**
 * The UI language, each named in itself: shown at once, kept in `locale` and saved on the server
 * when it can be (lib/lifecycle/user-language.ts). The settings menu and the settings dialog both offer it.
 */
export function LanguageChoice() {
  const t = useT();
  const id = useId();
  const language = normalizeLanguage(useLanguage());
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });

  async function choose(next: Language) {
    setSaving({ state: 'saving' });
    try {
      await setLanguage(next);
      setSaving({ state: 'saved' });
    } catch (error) {
      setSaving({ state: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <div>
      <fieldset className={styles.languages} aria-busy={saving.state === 'saving'} aria-describedby={`${id}-hint`}>
        <legend className={styles.legend}>{t('settings.language')}</legend>
        {SUPPORTED_LANGUAGES.map((option) => (
          <label key={option} className={styles.option}>
            <input
              type="radio"
              name={`${id}-language`}
              value={option}
              lang={option}
              checked={language === option}
              // Never disabled while saving: a disabled radio drops the focus the choice just put
              // there (a keyboard user's place, and the menu's Escape). A second choice meanwhile
              // is saved after the first, so the latest one wins (lib/lifecycle/user-language.ts).
              onChange={() => void choose(option)}
            />
            <span lang={option}>{t(`languages.${option}`)}</span>
          </label>
        ))}
      </fieldset>
      <p id={`${id}-hint`} className={styles.hint}>
        {t('settings.languageHint')}
      </p>
      <p className={styles.status} data-state={saving.state} role="status">
        {saving.state === 'saved' ? t('settings.languageSaved') : null}
        {saving.state === 'failed' ? t('settings.languageFailed', { message: saving.message }) : null}
      </p>
    </div>
  );
}
