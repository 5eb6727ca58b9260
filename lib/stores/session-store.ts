// Session values held by the application: the published current user, the search value and the
// receiver (the person whose conversation is open). docs/CLIENT-RULES.md says when each changes.
import { create } from 'zustand';
import type { User } from '@/lib/contract';

interface SessionState {
  /** The current user, published once the session is known; starts empty. */
  user: User | null;
  search: string;
  /** Id of the user the conversation is with. */
  receiver: number | null;
}

interface SessionActions {
  publishUser: (user: User | null) => void;
  setSearch: (search: string) => void;
  setReceiver: (receiver: number | null) => void;
}

export type SessionStore = SessionState & SessionActions;

export const useSessionStore = create<SessionStore>()((set) => ({
  user: null,
  search: '',
  receiver: null,
  publishUser: (user) => set({ user }),
  setSearch: (search) => set({ search }),
  setReceiver: (receiver) => set({ receiver }),
}));

/** For non-React callers (the guard, sign-in). */
export function publishUser(user: User | null): void {
  useSessionStore.getState().publishUser(user);
}


export const useCurrentUser = () => useSessionStore((state) => state.user);
