import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';
import { validateMessage } from '@/lib/stores/message-validation';
import { useT } from '@/lib/i18n';
import { SendIcon } from '@/components/ui/icons';
import styles from './composer.module.css';

/** The counter appears once this few characters are left. */
export const COUNTER_THRESHOLD = 400;
const MAX_HEIGHT_PX = 180;

interface Props {
  /** Called with the trimmed text of a message that passed validation. */
  onSend: (text: string) => void;
  placeholder: string;
  /** Where an attach button goes when uploads arrive (before the text box). */
  leading?: ReactNode;
  autoFocus?: boolean;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line. Too long a message is explained
 * and cannot be sent; an empty one cannot be sent either.
 */
export function Composer({ onSend, placeholder, leading, autoFocus = false }: Props) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);

  const trimmed = text.trim();
  const problem = validateMessage(trimmed, false);
  const left = MAX_MESSAGE_LENGTH - trimmed.length;

  // Grows with its text up to a few lines, then scrolls (field-sizing is not everywhere yet).
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  useEffect(() => {
    if (autoFocus) box.current?.focus();
  }, [autoFocus]);

  function send() {
    if (problem) return;
    onSend(trimmed);
    setText('');
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
    box.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // While an input method is composing, Enter picks the candidate; it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  }

  const note =
    problem?.reason === 'too_long' ? (
      <p id={`${id}-note`} className={styles.error} role="alert">
        {t('composer.tooLong', { length: problem.length, max: problem.max })}
      </p>
    ) : left <= COUNTER_THRESHOLD ? (
      <p id={`${id}-note`} className={styles.counter}>
        {t('composer.charactersLeft', { count: left })}
      </p>
    ) : null;

  return (
    <form className={styles.composer} onSubmit={onSubmit}>
      {note}
      <div className={styles.row}>
        {leading}
        <label htmlFor={id} className="visually-hidden">
          {t('composer.label')}
        </label>
        <textarea
          ref={box}
          id={id}
          className={styles.input}
          rows={1}
          value={text}
          placeholder={placeholder}
          aria-invalid={problem?.reason === 'too_long'}
          aria-describedby={note ? `${id}-note` : undefined}
          enterKeyHint="send"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className={styles.send} disabled={problem !== null} aria-label={t('composer.send')} title={t('composer.send')}>
          <SendIcon size={18} />
        </button>
      </div>
    </form>
  );
}
