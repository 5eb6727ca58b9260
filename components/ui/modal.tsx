import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
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
  /** A dialog of its own shape (the image viewer's whole screen), instead of the default's. */
  className?: string;
  /** The id of what describes the dialog (its keys), for assistive technology. */
  describedBy?: string;
  /** Keys pressed anywhere in the dialog (Escape and Tab are the dialog's own). */
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]';

/** What Tab stops at: shown, not taken out of the order; of a group of radio buttons, its checked one (or its first). */
function isTabStop(dialog: HTMLElement, element: HTMLElement): boolean {
  if (element.tabIndex < 0 || element.getClientRects().length === 0) return false;
  if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || element.checked) return true;
  const group = [...dialog.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter((radio) => radio.name === element.name);
  return !group.some((radio) => radio.checked) && group[0] === element;
}

/**
 * Tab from the last control goes round to the first, Shift+Tab from the first to the last: the
 * page behind a modal dialog is inert, and its focus must not wander off to the browser's own bar.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  const dialog = event.currentTarget;
  const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => isTabStop(dialog, element));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const at = document.activeElement;
  if (!event.shiftKey && at === last) {
    event.preventDefault();
    first.focus();
  } else if (event.shiftKey && (at === first || at === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  }
}

/**
 * A modal dialog (the browser's own <dialog>: the rest inert, Escape closes; Tab goes round inside).
 * Rendered only while open: mounting it opens it; unmounting it gives the focus back to what had
 * it before (the button that opened it), as a closed <dialog> would.
 */
export function Modal({ title, onClose, children, returnFocusTo, wide = false, className, describedBy, onKeyDown }: Props) {
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
      className={className ?? `${styles.modal} ${wide ? styles.wide : ''}`}
      aria-labelledby={`${id}-title`}
      aria-describedby={describedBy}
      onKeyDown={(event) => {
        // Escape closes this dialog only, not also what holds it (a card that closes on Escape).
        if (event.key === 'Escape') event.stopPropagation();
        if (event.key === 'Tab') keepFocusInside(event);
        else if (event.key !== 'Escape') onKeyDown?.(event);
      }}
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
