import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';
import { editMessage } from '@/lib/realtime/change-requests';
import { useEditStore } from '@/lib/stores/edit-store';
import { useT } from '@/lib/i18n';
import styles from './message-edit.module.css';

interface Props {
  messageId: number;
  text: string;
  onFailed: (error: string) => void;
}

/**
 * The user's message being edited, in place of its text: Enter saves, Shift+Enter starts a new
 * line, Escape cancels; focus goes back where it came from (the composer, or the actions menu).
 */
export function MessageEdit({ messageId, text, onFailed }: Props) {
  const t = useT();
  const id = useId();
  const [value, setValue] = useState(text);
  const box = useRef<HTMLTextAreaElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = box.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, []);

  function finish() {
    useEditStore.getState().stopEditing();
    const back = returnTo.current;
    if (back?.isConnected && back !== box.current) back.focus();
  }

  function save() {
    const next = value.trim();
    finish();
    if (next === text.trim()) return;
    void editMessage(messageId, next).then((answer) => {
      if (!answer.ok) onFailed(answer.error);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  }

  return (
    <div className={styles.editBox}>
      <label htmlFor={id} className="visually-hidden">
        {t('messageActions.editLabel')}
      </label>
      <textarea
        ref={box}
        id={id}
        className={styles.editInput}
        value={value}
        maxLength={MAX_MESSAGE_LENGTH}
        rows={Math.min(6, value.split('\n').length)}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={`${id}-hint`} className={styles.editHint}>
        {t('messageActions.editHint')}{' '}
        <button type="button" className={styles.editSave} disabled={value.trim() === ''} onClick={save}>
          {t('messageActions.save')}
        </button>
      </p>
    </div>
  );
}
