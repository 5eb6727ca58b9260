import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import { CloseIcon } from './icons';
import buttons from './button.module.css';
import styles from './modal.module.css';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog (the browser's own <dialog>: focus trapped, Escape closes, the rest inert).
 * Rendered only while open: mounting it opens it.
 */
export function Modal({ title, onClose, children }: Props) {
  const t = useT();
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    // jsdom has no showModal; an open attribute still shows it there.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.modal}
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
