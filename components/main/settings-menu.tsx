import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '@/lib/api/errors';
import { SUPPORTED_LANGUAGES, type Language } from '@/lib/contract';
import { normalizeLanguage, useT } from '@/lib/i18n';
import { setLanguage } from '@/lib/i18n/user-language';
import { useLanguage } from '@/components/i18n/i18n-provider';
import { NotificationSettings } from '@/components/notifications/notification-settings';
import { SettingsIcon } from '@/components/ui/icons';
import buttons from '@/components/ui/button.module.css';
import styles from './header.module.css';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string };

/** The settings popover: the UI language (saved on the server and in `locale`), then notifications. */
export function SettingsMenu() {
  const t = useT();
  const id = useId();
  const language = normalizeLanguage(useLanguage());
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close() {
    setOpen(false);
    toggleRef.current?.focus();
  }

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
    <div
      ref={rootRef}
      className={styles.menuRoot}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) close();
      }}
    >
      <button
        ref={toggleRef}
        type="button"
        className={`${buttons.button} ${buttons.icon}`}
        aria-label={t('header.openSettings')}
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => {
          setSaving({ state: 'idle' });
          setOpen(!open);
        }}
      >
        <SettingsIcon />
      </button>
      {open ? (
        <div id={`${id}-panel`} className={styles.menu} role="group" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`} className={styles.menuTitle}>
            {t('settings.title')}
          </h2>
          <fieldset className={styles.languages} aria-busy={saving.state === 'saving'} aria-describedby={`${id}-hint`}>
            <legend className={styles.legend}>{t('settings.language')}</legend>
            {SUPPORTED_LANGUAGES.map((option) => (
              <label key={option} className={styles.languageOption}>
                <input
                  type="radio"
                  name={`${id}-language`}
                  value={option}
                  lang={option}
                  checked={language === option}
                  disabled={saving.state === 'saving'}
                  onChange={() => void choose(option)}
                />
                <span lang={option}>{t(`languages.${option}`)}</span>
              </label>
            ))}
          </fieldset>
          <p id={`${id}-hint`} className={styles.hint}>
            {t('settings.languageHint')}
          </p>
          <p className={styles.saveStatus} data-state={saving.state} role="status">
            {saving.state === 'saved' ? t('settings.languageSaved') : null}
            {saving.state === 'failed' ? t('settings.languageFailed', { message: saving.message }) : null}
          </p>
          <NotificationSettings />
        </div>
      ) : null}
    </div>
  );
}
