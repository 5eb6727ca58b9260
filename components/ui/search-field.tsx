import { useEffect, useId, useRef } from 'react';
import { CloseIcon, SearchIcon } from './icons';
import styles from './search-field.module.css';

export interface SearchFieldProps {
  /** For screen readers (the field shows only its placeholder). */
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Escape in the box: true when it did something (the key then goes no further). */
  onEscape: () => boolean;
  /** The button at the end of the box (clear, close), if any; the focus stays in the box after it. */
  action?: { label: string; onClick: () => void } | null;
  /** Takes the focus when it appears. */
  focusOnMount?: boolean;
  spellCheck?: boolean;
}

/** A search box in a `role="search"` form: a magnifier, the text, and an optional button at its end. */
export function SearchField({ label, placeholder, value, onValueChange, onEscape, action = null, focusOnMount = false, spellCheck }: SearchFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, [focusOnMount]);

  return (
    <form className={styles.field} role="search" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <SearchIcon className={styles.icon} size={18} />
      <input
        ref={input}
        id={id}
        type="search"
        className={styles.input}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={spellCheck}
        enterKeyHint="search"
        onChange={(event) => onValueChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onEscape()) event.preventDefault();
        }}
      />
      {action ? (
        <button
          type="button"
          className={styles.action}
          aria-label={action.label}
          title={action.label}
          onClick={() => {
            action.onClick();
            // The button may go away with what it did: keep the keyboard user in the box.
            input.current?.focus();
          }}
        >
          <CloseIcon size={16} />
        </button>
      ) : null}
    </form>
  );
}
