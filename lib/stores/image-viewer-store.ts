// Which image of the open conversation is shown in the viewer (components/chat/image-viewer.tsx):
// a thumbnail in the thread opens it, the viewer steps and closes it.
import { create } from 'zustand';

export interface ImageViewerState {
  /** The attachment id of the image shown; null: the viewer is closed. */
  showing: string | null;
  show: (attachmentId: string) => void;
  close: () => void;
}

export const useImageViewerStore = create<ImageViewerState>()((set) => ({
  showing: null,
  show: (attachmentId) => set({ showing: attachmentId }),
  close: () => set({ showing: null }),
}));
