// Who is writing to the signed-in user right now. Ephemeral: never stored anywhere, never counted
// as unread. The typing receiver (lib/realtime/typing-receiver.ts) sets and expires it.
import { create } from 'zustand';

interface TypingState {
  /** People typing to the user now, by user id. */
  typing: Record<number, true>;
}

interface TypingActions {
  setTyping: (userId: number, typing: boolean) => void;
  /** Sign-out: nobody is typing to anyone. */
  reset: () => void;
}

export type TypingStore = TypingState & TypingActions;

export const useTypingStore = create<TypingStore>()((set) => ({
  typing: {},
  setTyping: (userId, typing) =>
    set((state) => {
      if (typing === (state.typing[userId] === true)) return state;
      const next = { ...state.typing };
      if (typing) next[userId] = true;
      else delete next[userId];
      return { typing: next };
    }),
  reset: () => set({ typing: {} }),
}));

/** Is `userId` typing to the signed-in user? */
export const useIsTyping = (userId: number) => useTypingStore((state) => state.typing[userId] === true);
