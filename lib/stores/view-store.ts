// What the user can see of the open conversation: how far down they have seen its messages, and
// whether its newest message is on screen (read marking follows it, lib/realtime/read-marking.ts:
// a message never on screen is unread), and which long messages they opened in full (kept while
// the list unmounts what is out of view).
import { create } from 'zustand';

export interface ViewState {
  /** The open conversation's newest message is on screen (false while it loads or none is open). */
  seesLatest: boolean;
  /** The newest stored message of the open conversation that has been on screen; null: none yet. */
  seen: { peerId: number; upTo: number } | null;
  /** Long messages shown in full ("Read more"), by message key. */
  expanded: Record<string, true>;
}

export interface ViewActions {
  setSeesLatest: (seesLatest: boolean) => void;
  /** A message of the conversation with `peerId` was on screen: `seen` reaches it, never goes back. */
  noteSeen: (peerId: number, messageId: number) => void;
  /** The conversation's list is gone (closed, or started over). */
  clearSeen: () => void;
  setExpanded: (key: string, expanded: boolean) => void;
}

export const useViewStore = create<ViewState & ViewActions>()((set) => ({
  seesLatest: false,
  seen: null,
  expanded: {},
  setSeesLatest: (seesLatest) => set({ seesLatest }),
  noteSeen: (peerId, messageId) =>
    set((state) => (state.seen?.peerId === peerId && state.seen.upTo >= messageId ? state : { seen: { peerId, upTo: messageId } })),
  clearSeen: () => set({ seen: null }),
  setExpanded: (key, expanded) =>
    set((state) => {
      const next = { ...state.expanded };
      if (expanded) next[key] = true;
      else delete next[key];
      return { expanded: next };
    }),
}));
