// What the user can see of the open conversation: whether its newest message is on screen. Read
// marking waits for it (lib/realtime/read-marking.ts): a message scrolled out of view is unread.
import { create } from 'zustand';

export interface ViewState {
  /** The open conversation's newest message is on screen (false while it loads or none is open). */
  seesLatest: boolean;
}

export interface ViewActions {
  setSeesLatest: (seesLatest: boolean) => void;
}

export const useViewStore = create<ViewState & ViewActions>()((set) => ({
  seesLatest: false,
  setSeesLatest: (seesLatest) => set({ seesLatest }),
}));
