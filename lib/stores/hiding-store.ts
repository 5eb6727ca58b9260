// Messages the user deleted for themselves whose deletion has not reached the server yet: out of
// their thread already, with an Undo offered for a few seconds (the timers and the sending are
// lib/realtime/delayed-hides.ts's; this holds the state the thread and the Undo bar read). And
// those whose deletion this session heard of (on any of the user's devices; never undone): a
// thread page, a list page or a catch-up read before it and answered after must not bring them back.
import { create } from 'zustand';

export interface PendingHide {
  messageId: number;
  peerId: number;
  /** Within its Undo time; false once it is being sent. */
  undoable: boolean;
}

export interface HidingState {
  /** Oldest first. */
  pending: PendingHide[];
  add: (hide: PendingHide) => void;
  /** Its Undo time is over: it is being sent. */
  lockIn: (messageId: number) => void;
  /** Undone, or done (the server's change now says it): no longer pending. */
  drop: (messageId: number) => void;
  /** Deleted for the user, as the account's item says (this device's deletion or another's). */
  done: ReadonlySet<number>;
  hidden: (messageId: number) => void;
  reset: () => void;
}

export const useHidingStore = create<HidingState>()((set) => ({
  pending: [],
  add: (hide) => set((state) => ({ pending: [...state.pending.filter((entry) => entry.messageId !== hide.messageId), hide] })),
  lockIn: (messageId) =>
    set((state) => ({ pending: state.pending.map((entry) => (entry.messageId === messageId ? { ...entry, undoable: false } : entry)) })),
  drop: (messageId) =>
    set((state) => (state.pending.some((entry) => entry.messageId === messageId) ? { pending: state.pending.filter((entry) => entry.messageId !== messageId) } : state)),
  done: new Set(),
  hidden: (messageId) => set((state) => (state.done.has(messageId) ? state : { done: new Set([...state.done, messageId]) })),
  reset: () => set({ pending: [], done: new Set() }),
}));

/** `messages` without those this session heard were deleted for the user. */
export function withoutHidden<M extends { id: number }>(messages: readonly M[]): M[] {
  const { done } = useHidingStore.getState();
  return done.size === 0 ? [...messages] : messages.filter((message) => !done.has(message.id));
}

/** The latest deletion whose Undo is still offered, or null. */
export const selectUndoable = (state: HidingState): PendingHide | null => state.pending.findLast((entry) => entry.undoable) ?? null;

/** `messages` without those deleted and not sent yet: the same array when none of them is. */
export function withoutPending<M extends { id: number | null }>(messages: M[], pending: readonly PendingHide[]): M[] {
  if (pending.length === 0) return messages;
  const ids = new Set(pending.map((entry) => entry.messageId));
  return messages.some((message) => message.id !== null && ids.has(message.id)) ? messages.filter((message) => message.id === null || !ids.has(message.id)) : messages;
}
