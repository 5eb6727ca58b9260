// Counters fed by the socket (SPEC §3, §4): the unread count and the user id the socket serves.
import { create } from 'zustand';

export interface CounterState {
  unread: number;
  /** The id the socket was initialised with; 0 until a user is known. */
  socketUserId: number;
}

export interface CounterActions {
  setUnread: (count: number) => void;
  incrementUnread: () => void;
  setSocketUserId: (id: number) => void;
}

export type CounterStore = CounterState & CounterActions;

const initialCounterState: CounterState = { unread: 0, socketUserId: 0 };

export const useCounterStore = create<CounterStore>()((set) => ({
  ...initialCounterState,
  setUnread: (count) => set({ unread: count }),
  incrementUnread: () => set((state) => ({ unread: state.unread + 1 })),
  setSocketUserId: (id) => set({ socketUserId: id }),
}));

export const useUnreadCount = () => useCounterStore((state) => state.unread);

/** Tests only: back to the initial values between cases. */
export function resetCounterStore(): void {
  useCounterStore.setState(initialCounterState);
}
