// Which of the user's messages is being edited in the open conversation (one at a time): the
// actions menu and the composer's Up arrow start it, the edit box ends it.
import { create } from 'zustand';

export interface EditState {
  /** The id of the message being edited; null: none. */
  editing: number | null;
  startEditing: (messageId: number) => void;
  stopEditing: () => void;
}

export const useEditStore = create<EditState>()((set) => ({
  editing: null,
  startEditing: (messageId) => set({ editing: messageId }),
  stopEditing: () => set({ editing: null }),
}));
