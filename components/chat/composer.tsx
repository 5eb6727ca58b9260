import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type ClipboardEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { MAX_MESSAGE_LENGTH, type Attachment } from '@/lib/contract';
import { validateMessage } from '@/lib/stores/message-validation';
import { useT } from '@/lib/i18n';
import { PaperclipIcon, SendIcon } from '@/components/ui/icons';
import { AttachmentChip } from './attachment-chip';
import { useAttachment } from './use-attachment';
import { useDraft, type DraftKey } from './use-draft';
import { useFileDrop } from './use-file-drop';
import styles from './composer.module.css';

/** The counter appears once this few characters are left. */
const COUNTER_THRESHOLD = 400;
const MAX_HEIGHT_PX = 180;

interface Props {
  /**
   * Called with the trimmed text of a message that passed validation, and the uploaded file when
   * one is attached (the text may then be empty).
   */
  onSend: (text: string, attachment?: Attachment) => void;
  /** Every change of the text as typed (typing signals); not called when a send empties the box. */
  onTextChange?: (text: string) => void;
  /** The text box lost focus. */
  onBlur?: () => void;
  placeholder: string;
  /** Extra controls before the text box, after the attach button. */
  leading?: ReactNode;
  autoFocus?: boolean;
  /** Whose conversation the text is a draft of: kept until sent or cleared (none: not kept). */
  draftKey?: DraftKey | null;
  /** Up arrow in an empty box: edit the user's last message (false: there is none to edit). */
  onEditLast?: () => boolean;
  /** Shown above the box, with the attachment (the quote of the message being answered). */
  above?: ReactNode;
  /** Escape in the box: true when it did something (cancelled a reply). */
  onEscape?: () => boolean;
  /** The box takes the focus whenever this changes (Reply was chosen in a message's menu). */
  focusRequest?: number;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line. Too long a message is explained
 * and cannot be sent; an empty one cannot be sent either, unless a file is attached. A file is
 * checked against the size limit, uploaded with progress (cancellable), then sent with the text.
 */
export function Composer({ onSend, onTextChange, onBlur, placeholder, leading, autoFocus = false, draftKey = null, onEditLast, above, onEscape, focusRequest }: Props) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useAttachment();
  const { attachment, pick } = upload;
  const discardDraft = useDraft(draftKey, text, setText);
  const form = useRef<HTMLFormElement>(null);
  const dragging = useFileDrop(form, pick);

  const trimmed = text.trim();
  const problem = validateMessage(trimmed, attachment !== null);
  const uploading = upload.state.status === 'uploading';
  const blocked = problem !== null || uploading;
  const left = MAX_MESSAGE_LENGTH - trimmed.length;

  // Grows with its text up to a few lines, then scrolls (field-sizing is not everywhere yet).
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  // Not away from a field the person is typing in (the search box, right after a reload): their
  // next keys would land in this box instead.
  useEffect(() => {
    if (autoFocus && !isTextEntry(document.activeElement)) box.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (focusRequest) box.current?.focus();
  }, [focusRequest]);

  function send() {
    if (blocked) return;
    if (attachment) onSend(trimmed, attachment);
    else onSend(trimmed);
    discardDraft();
    setText('');
    upload.sent();
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Emptied, so picking the same file again (after a remove or a failure) still fires a change.
    event.target.value = '';
    if (file) upload.pick(file);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
    box.current?.focus();
  }

  /** A pasted image (a screenshot, a copied picture) is attached like a picked file. */
  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const file = event.clipboardData.files[0];
    if (!file) return;
    event.preventDefault();
    pick(file);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape' && onEscape?.()) {
      event.preventDefault();
      return;
    }
    if (event.key === 'ArrowUp' && text === '' && !attachment && onEditLast?.()) {
      event.preventDefault();
      return;
    }
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
    <form ref={form} className={styles.composer} onSubmit={onSubmit} data-dragging={dragging}>
      {dragging ? (
        <p className={styles.dropHint} aria-hidden="true">
          {t('composer.dropHere')}
        </p>
      ) : null}
      {note}
      {above}
      <AttachmentChip upload={upload} />
      <div className={styles.row}>
        <input
          ref={fileInput}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-label={t('composer.chooseFile')}
          onChange={onPick}
        />
        <button
          type="button"
          className={styles.attach}
          aria-label={t('composer.attach')}
          title={t('composer.attach')}
          onClick={() => fileInput.current?.click()}
        >
          <PaperclipIcon size={20} />
        </button>
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
          onChange={(event) => {
            setText(event.target.value);
            onTextChange?.(event.target.value);
          }}
          onBlur={onBlur}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <button type="submit" className={styles.send} disabled={blocked} aria-label={t('composer.send')} title={t('composer.send')}>
          <SendIcon size={18} />
        </button>
      </div>
    </form>
  );
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** A field that takes typed text: a textarea, a text-like input, or an editable element. */
function isTextEntry(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement) return true;
  if (element instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}
