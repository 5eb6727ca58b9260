import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { QUICK_REACTIONS } from '@/lib/contract/index';
import { reactToMessage, unsendMessage, withinWindow, type ChangeAnswer } from '@/lib/realtime/change-requests';
import { deleteForMe } from '@/lib/realtime/messaging-session';
import type { ThreadMessage } from '@/lib/stores/thread-store';
import { useEditStore } from '@/lib/stores/edit-store';
import { summaryOf, useReplyStore } from '@/lib/stores/reply-store';
import { useT } from '@/lib/i18n/index';
import { Modal } from '@/components/ui/modal';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import styles from './message-menu.module.css';

// The full picker (its code and the emoji data) loads only when someone asks for it.
const EmojiPicker = lazy(() => import('./emoji-picker'));

interface Props {
  message: ThreadMessage & { id: number };
  /** The conversation's other person (whose composer gets the quote). */
  peerId: number;
  own: boolean;
  me: number | null;
  /** Someone else's message: open the report dialog. */
  onReport: () => void;
  /** A refused change, as a sentence for the reader. */
  onFailed: (error: string) => void;
  /** The text could not be put on the clipboard. */
  onCopyFailed: () => void;
  /** The menu opens whenever this changes (a long press on the message). */
  openRequest?: number;
}

interface Item {
  key: string;
  label: string;
  /** Shown instead of the label (an emoji), the label then naming it for assistive technology. */
  glyph?: string;
  run: () => void;
}

/**
 * The "…" menu of one message: the quick reactions and the picker, then what the user may do
 * with it (copy its text, edit and unsend their own while the windows last, delete for
 * themselves, report someone else's). A WAI-ARIA menu button: arrows move, Home/End jump, Escape
 * closes and gives focus back to the button. A long press on the message opens it too.
 */
export function MessageMenu({ message, peerId, own, me, onReport, onFailed, onCopyFailed, openRequest = 0 }: Props) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [openedFor, setOpenedFor] = useState(openRequest);
  if (openRequest !== openedFor) {
    setOpenedFor(openRequest);
    setOpen(true);
  }
  const [picking, setPicking] = useState(false);
  const [confirmingUnsend, setConfirmingUnsend] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  const act = (change: Promise<ChangeAnswer>) =>
    void change.then((answer) => {
      if (!answer.ok) onFailed(answer.error);
    });
  const mine = (emoji: string) => me !== null && message.reactions.some((reaction) => reaction.emoji === emoji && reaction.user_ids.includes(me));
  const toggle = (emoji: string) => act(reactToMessage(message.id, emoji, !mine(emoji)));

  const items: Item[] = [];
  if (!message.deleted) {
    items.push({ key: 'reply', label: t('replies.reply'), run: () => useReplyStore.getState().startReply(peerId, summaryOf(message)) });
    for (const emoji of QUICK_REACTIONS) items.push({ key: `react-${emoji}`, label: t('messageActions.reactWith', { emoji }), glyph: emoji, run: () => toggle(emoji) });
    items.push({ key: 'more', label: t('messageActions.moreReactions'), run: () => setPicking(true) });
    // On a touch screen a long press opens this menu instead of selecting text: the text is here.
    if (message.text !== '') {
      items.push({ key: 'copy', label: t('messageActions.copy'), run: () => copyText(message.text, onCopyFailed) });
    }
    if (own && message.text !== '' && withinWindow(message.created_at, 'edit')) {
      items.push({ key: 'edit', label: t('messageActions.edit'), run: () => useEditStore.getState().startEditing(message.id) });
    }
  }
  // Gone at once, with a few seconds' Undo (components/chat/undo-bar.tsx) before it is sent.
  items.push({ key: 'hide', label: t('messageActions.deleteForMe'), run: () => deleteForMe(peerId, message.id) });
  if (own && !message.deleted && withinWindow(message.created_at, 'unsend')) {
    items.push({ key: 'unsend', label: t('messageActions.unsend'), run: () => setConfirmingUnsend(true) });
  }
  if (!own) items.push({ key: 'report', label: t('safety.reportMessage'), run: onReport });

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  function close(focusButton: boolean) {
    setOpen(false);
    if (focusButton) button.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent<HTMLDivElement>) {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      entries[(to + entries.length) % entries.length]?.focus();
    };
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(at + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(entries.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') setOpen(false);
  }

  return (
    <div className={styles.messageActions} data-open={open || picking}>
      <button
        ref={button}
        type="button"
        className={styles.actionsButton}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={t('messageActions.menu')}
        title={t('messageActions.menu')}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open ? (
        <div ref={menu} id={`${id}-menu`} role="menu" aria-label={t('messageActions.menu')} className={styles.actionsMenu} onKeyDown={onMenuKey}>
          <div className={styles.quickReactions}>
            {items
              .filter((item) => item.glyph)
              .map((item) => (
                <button
                  key={item.key}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={styles.quickReaction}
                  aria-label={item.label}
                  title={item.label}
                  data-mine={mine(item.glyph!)}
                  onClick={() => {
                    close(true);
                    item.run();
                  }}
                >
                  {item.glyph}
                </button>
              ))}
          </div>
          {items
            .filter((item) => !item.glyph)
            .map((item) => (
              <button
                key={item.key}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={styles.actionsItem}
                data-action={item.key}
                onClick={() => {
                  close(item.key !== 'edit' && item.key !== 'more' && item.key !== 'report' && item.key !== 'unsend' && item.key !== 'reply');
                  item.run();
                }}
              >
                {item.label}
              </button>
            ))}
        </div>
      ) : null}
      {picking ? (
        <Suspense fallback={<p className={styles.pickerLoading} role="status">{t('messageActions.pickerLoading')}</p>}>
          <EmojiPicker
            onPick={(emoji) => {
              setPicking(false);
              button.current?.focus();
              toggle(emoji);
            }}
            onClose={() => {
              setPicking(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
      {confirmingUnsend ? (
        <Modal
          title={t('messageActions.unsendConfirmTitle')}
          onClose={() => {
            setConfirmingUnsend(false);
            button.current?.focus();
          }}
        >
          <p>
            {t('messageActions.unsendConfirmBody')}
            {message.attachment ? ` ${t('messageActions.unsendConfirmFile')}` : null}
          </p>
          <div className={modal.actions}>
            <button
              type="button"
              className={buttons.button}
              onClick={() => {
                setConfirmingUnsend(false);
                button.current?.focus();
              }}
            >
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className={`${buttons.button} ${modal.danger}`}
              onClick={() => {
                setConfirmingUnsend(false);
                act(unsendMessage(message.id));
              }}
            >
              {t('messageActions.unsend')}
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}

/** The clipboard exists on secure pages only (https, localhost), and may still refuse. */
function copyText(text: string, onFailed: () => void) {
  if (!('clipboard' in navigator)) return onFailed();
  navigator.clipboard.writeText(text).catch(onFailed);
}
