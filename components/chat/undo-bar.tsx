import { useId, useLayoutEffect, useRef } from 'react';
import { loadMessagingSession } from '@/lib/realtime/session-start';
import { selectUndoable, useHidingStore } from '@/lib/stores/hiding-store';
import { useT } from '@/lib/i18n';
import styles from './undo-bar.module.css';

/** Where the focus goes when the Undo it was on goes away: the open conversation's message box, if any. */
function focusAfterOffer(): void {
  document.querySelector<HTMLElement>('main textarea')?.focus();
}

/**
 * The Undo of one deletion, while it is offered. It takes the focus (the message it came from, and
 * its menu button, just left the screen) and gives it on when it goes, however it goes.
 */
function UndoOffer({ messageId, describedBy }: { messageId: number; describedBy: string }) {
  const t = useT();
  const button = useRef<HTMLButtonElement>(null);
  // A layout effect: its clean-up runs while the button is still on the page, focused or not.
  useLayoutEffect(() => {
    const own = button.current;
    own?.focus();
    return () => {
      if (own && document.activeElement === own) focusAfterOffer();
    };
  }, []);
  return (
    <button ref={button} type="button" className={styles.undo} aria-describedby={describedBy} onClick={() => void loadMessagingSession().then((session) => session.undoDeleteForMe(messageId))}>
      {t('messageActions.undo')}
    </button>
  );
}

/**
 * "Message deleted for you. Undo": shown while the latest "Delete for me" can still be taken back
 * (lib/realtime/delayed-hides.ts). Part of the main area, not of a thread: opening another
 * conversation keeps the offer for the rest of its time.
 */
export function UndoBar() {
  const t = useT();
  const id = useId();
  const offer = useHidingStore(selectUndoable);
  return (
    <div className={styles.bar} data-open={offer !== null}>
      {/* Always on the page, so the sentence is announced when it appears. */}
      <p id={id} className={styles.text} role="status">
        {offer ? t('messageActions.deletedForMe') : ''}
      </p>
      {offer ? <UndoOffer key={offer.messageId} messageId={offer.messageId} describedBy={id} /> : null}
    </div>
  );
}
