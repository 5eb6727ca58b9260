// Messages the user deleted for themselves whose deletion has not reached the server yet: out of
// their thread already, with an Undo offered for a few seconds (the timers and the sending are
// lib/realtime/delayed-hides.ts's; this holds the state the thread and the Undo bar read).
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
  reset: () => void;
}

export const useHidingStore = create<HidingState>()((set) => ({
  pending: [],
  add: (hide) => set((state) => ({ pending: [...state.pending.filter((entry) => entry.messageId !== hide.messageId), hide] })),
  lockIn: (messageId) =>
    set((state) => ({ pending: state.pending.map((entry) => (entry.messageId === messageId ? { ...entry, undoable: false } : entry)) })),
  drop: (messageId) =>
    set((state) => (state.pending.some((entry) => entry.messageId === messageId) ? { pending: state.pending.filter((entry) => entry.messageId !== messageId) } : state)),
  reset: () => set({ pending: [] }),
}));

/** The latest deletion whose Undo is still offered, or null. */
export const selectUndoable = (state: HidingState): PendingHide | null => state.pending.findLast((entry) => entry.undoable) ?? null;

/** `messages` without those deleted and not sent yet: the same array when none of them is. */
export function withoutPending<M extends { id: number | null }>(messages: M[], pending: readonly PendingHide[]): M[] {
  if (pending.length === 0) return messages;
  const ids = new Set(pending.map((entry) => entry.messageId));
  return messages.some((message) => message.id !== null && ids.has(message.id)) ? messages.filter((message) => message.id === null || !ids.has(message.id)) : messages;
}
