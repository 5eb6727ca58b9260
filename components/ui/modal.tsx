import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import { CloseIcon } from './icons';
import buttons from './button.module.css';
import styles from './modal.module.css';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Where the focus goes when the dialog closes if what opened it is gone (a menu that closed). */
  returnFocusTo?: () => HTMLElement | null | undefined;
  /** Room for a side column (the settings' sections). */
  wide?: boolean;
}

/**
 * A modal dialog (the browser's own <dialog>: focus trapped, Escape closes, the rest inert).
 * Rendered only while open: mounting it opens it; unmounting it gives the focus back to what had
 * it before (the button that opened it), as a closed <dialog> would.
 */
export function Modal({ title, onClose, children, returnFocusTo, wide = false }: Props) {
  const t = useT();
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  // Read while rendering, before the commit that opens the dialog can remove the opener.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  const [fallback] = useState(() => returnFocusTo);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      // jsdom has no showModal; an open attribute still shows it there.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      // Removed from the page while open, a <dialog> leaves the focus nowhere: give it back.
      const target = opener instanceof HTMLElement && opener.isConnected ? opener : fallback?.();
      target?.focus();
    };
  }, [opener, fallback]);

  return (
    <dialog
      ref={ref}
      className={`${styles.modal} ${wide ? styles.wide : ''}`}
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className={styles.head}>
        <h2 id={`${id}-title`} className={styles.title}>
          {title}
        </h2>
        <button type="button" className={`${buttons.button} ${buttons.icon}`} aria-label={t('common.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {children}
    </dialog>
  );
}
