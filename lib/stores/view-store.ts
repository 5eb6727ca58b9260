// What the user can see of the open conversation: whether its newest message is on screen (read
// marking waits for it, lib/realtime/read-marking.ts: a message scrolled out of view is unread),
// and which long messages they opened in full (kept while the list unmounts what is out of view).
import { create } from 'zustand';

export interface ViewState {
  /** The open conversation's newest message is on screen (false while it loads or none is open). */
  seesLatest: boolean;
  /** Long messages shown in full ("Read more"), by message key. */
  expanded: Record<string, true>;
}

export interface ViewActions {
  setSeesLatest: (seesLatest: boolean) => void;
  setExpanded: (key: string, expanded: boolean) => void;
}

export const useViewStore = create<ViewState & ViewActions>()((set) => ({
  seesLatest: false,
  expanded: {},
  setSeesLatest: (seesLatest) => set({ seesLatest }),
  setExpanded: (key, expanded) =>
    set((state) => {
      const next = { ...state.expanded };
      if (expanded) next[key] = true;
      else delete next[key];
      return { expanded: next };
    }),
}));
