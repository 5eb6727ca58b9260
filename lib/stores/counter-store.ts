// The unread-message total: starts at 0 and changes only as the socket's events say (the rule
// is applied where events meet the stores: lib/realtime/session-events.ts).
import { create } from 'zustand';

interface CounterState {
  unread: number;
}

interface CounterActions {
  setUnread: (count: number) => void;
  incrementUnread: () => void;
}

export type CounterStore = CounterState & CounterActions;

export const useCounterStore = create<CounterStore>()((set) => ({
  unread: 0,
  setUnread: (count) => set({ unread: count }),
  incrementUnread: () => set((state) => ({ unread: state.unread + 1 })),
}));

export const useUnreadCount = () => useCounterStore((state) => state.unread);
