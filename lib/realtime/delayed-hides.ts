// "Delete for me" with a few seconds' Undo: the message leaves the thread at once, and the change
// is sent only when the time is up (docs/DECISIONS.md, "Delete for me, with Undo"). Until the
// server acknowledges it, the intent is kept in storage: the page closing sends it at once, and
// whatever did not get through is sent at the next start. Created by the messaging session.
import type { Ack, ChangeResult } from '@/lib/contract';
import type { HideStorage } from '@/lib/outbox/hide-storage';
import { useHidingStore } from '@/lib/stores/hiding-store';

/** How long the Undo is offered before the deletion is sent. */
export const UNDO_MS = 5_000;

export interface DelayedHidesOptions {
  userId: number;
  storage: HideStorage;
  /** The `hide` request. */
  send: (messageId: number) => Promise<Ack<ChangeResult>>;
  /** The acknowledged change (the account's `hide` item), applied to the stores. */
  apply: (change: NonNullable<ChangeResult['change']>) => void;
}

export interface DelayedHides {
  /** Takes the message out of its thread now; sends the deletion once the Undo time is over. */
  hide(peerId: number, messageId: number): void;
  /** Puts it back, if its deletion was not sent yet; false when too late. */
  undo(messageId: number): boolean;
  /** Sends every pending deletion now, Undo time or not (the page is closing, the user signs out). */
  sendAll(): void;
  /** Sends again those whose request did not get through (called on every connection). */
  retry(): void;
  stop(): void;
}

export function createDelayedHides({ userId, storage, send, apply }: DelayedHidesOptions): DelayedHides {
  const store = useHidingStore.getState;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const inFlight = new Set<number>();
  // Undone, waiting for the storage to let go of them: never sent, whatever closes meanwhile.
  const undone = new Set<number>();
  let stopped = false;

  const forget = (messageId: number) => {
    store().drop(messageId);
    void storage.remove(userId, messageId).catch(() => undefined);
  };

  function commit(messageId: number): void {
    clearTimeout(timers.get(messageId));
    timers.delete(messageId);
    if (inFlight.has(messageId) || undone.has(messageId) || stopped) return;
    store().lockIn(messageId);
    inFlight.add(messageId);
    void send(messageId).then((ack) => {
      inFlight.delete(messageId);
      if ('data' in ack) {
        // The change takes it out of the thread for good (and out of the list's preview).
        if (ack.data.change) apply(ack.data.change);
        forget(messageId);
      } else if ('non_field_errors' in ack.error) {
        // Refused for good (gone, or not the user's to delete): it shows again as it is.
        forget(messageId);
      }
      // A passing failure ({msg}: not connected, busy): still pending, sent again on the next connection.
    });
  }

  // Deletions a previous page did not get through: out of sight now, sent as soon as possible.
  void storage.load(userId).then((stored) => {
    if (stopped) return;
    for (const hide of stored) {
      if (store().pending.some((entry) => entry.messageId === hide.message_id)) continue;
      store().add({ messageId: hide.message_id, peerId: hide.peer_id, undoable: false });
      commit(hide.message_id);
    }
  }, () => undefined);

  return {
    hide(peerId, messageId) {
      if (stopped || store().pending.some((entry) => entry.messageId === messageId)) return;
      store().add({ messageId, peerId, undoable: true });
      void storage.put({ user_id: userId, message_id: messageId, peer_id: peerId }).catch(() => undefined);
      timers.set(
        messageId,
        setTimeout(() => commit(messageId), UNDO_MS),
      );
    },
    undo(messageId) {
      const entry = store().pending.find((pending) => pending.messageId === messageId);
      if (!entry?.undoable || undone.has(messageId)) return false;
      clearTimeout(timers.get(messageId));
      timers.delete(messageId);
      // Shown again once the storage no longer holds it: a page reloaded right after Undo would
      // otherwise find the deletion there and send it (seen in the end-to-end run under load).
      undone.add(messageId);
      void storage
        .remove(userId, messageId)
        .catch(() => undefined)
        .then(() => {
          undone.delete(messageId);
          store().drop(messageId);
        });
      return true;
    },
    sendAll() {
      for (const entry of store().pending) commit(entry.messageId);
    },
    retry() {
      for (const entry of store().pending) if (!entry.undoable) commit(entry.messageId);
    },
    stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      store().reset();
    },
  };
}
