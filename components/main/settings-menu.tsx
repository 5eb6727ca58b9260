import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '@/lib/i18n';
import { SettingsIcon } from '@/components/ui/icons';
import { LanguageChoice } from '@/components/settings/language-choice';
import buttons from '@/components/ui/button.module.css';
import styles from './header.module.css';

interface Props {
  /** Opens the settings dialog (the header holds it, so that the user's own face opens it too). */
  onOpenSettings: () => void;
}

/**
 * The settings popover, kept short: the UI language (the one setting people change in passing)
 * and the way to every other setting, in the settings dialog.
 */
export function SettingsMenu({ onOpenSettings }: Props) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  /** Closes it; the focus goes back to its button when it was in the menu or nowhere (the page). */
  function close() {
    const focused = document.activeElement;
    setOpen(false);
    if (!focused || focused === document.body || rootRef.current?.contains(focused)) toggleRef.current?.focus();
  }

  // Open, it closes on a press outside it, and on Escape wherever the focus is (a choice in it may
  // re-render what had the focus, and Escape must still close it), unless something focused
  // elsewhere (the composer cancelling a reply) used that Escape already.
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !event.defaultPrevented) close();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div ref={rootRef} className={styles.menuRoot}>
      <button
        ref={toggleRef}
        type="button"
        className={`${buttons.button} ${buttons.icon}`}
        aria-label={t('header.openSettings')}
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => setOpen(!open)}
      >
        <SettingsIcon />
      </button>
      {open ? (
        <div id={`${id}-panel`} className={styles.menu} role="group" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`} className={styles.menuTitle}>
            {t('settings.title')}
          </h2>
          <LanguageChoice />
          <div className={styles.menuActions}>
            <button
              type="button"
              className={`${buttons.button} ${buttons.small}`}
              onClick={() => {
                // The menu closes with its button: the dialog gives the focus back to the toggle.
                close();
                onOpenSettings();
              }}
            >
              {t('settings.openAll')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
