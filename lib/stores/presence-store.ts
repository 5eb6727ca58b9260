// Others' presence as the server lets the signed-in user see it: online, or when they were last
// seen. Someone absent here is shown with no presence at all (hidden, or not shared with the user).
// The presence subscriptions (lib/realtime/presence-subscriptions.ts) fill it.
import { create } from 'zustand';
import type { PresencePayload } from '@/lib/contract';

export interface PeerPresence {
  online: boolean;
  /** ISO time their last tab closed; null while online. */
  lastSeenAt: string | null;
}

interface PresenceState {
  presence: Record<number, PeerPresence>;
}

interface PresenceActions {
  /** One person's change (`presence`); an offline state without a time means hidden: dropped. */
  apply: (payload: PresencePayload) => void;
  /** A subscription's answer: everything known now, the followed list having replaced the last. */
  replace: (states: readonly PresencePayload[]) => void;
  /** Sign-out, or the user stopped sharing (and so seeing) presence. */
  reset: () => void;
}

export type PresenceStore = PresenceState & PresenceActions;

const known = (payload: PresencePayload) => payload.online || payload.last_seen_at !== null;
const toPeer = (payload: PresencePayload): PeerPresence => ({ online: payload.online, lastSeenAt: payload.online ? null : payload.last_seen_at });

export const usePresenceStore = create<PresenceStore>()((set) => ({
  presence: {},
  apply: (payload) =>
    set((state) => {
      const next = { ...state.presence };
      if (known(payload)) next[payload.user_id] = toPeer(payload);
      else if (payload.user_id in next) delete next[payload.user_id];
      else return state;
      return { presence: next };
    }),
  replace: (states) => set({ presence: Object.fromEntries(states.filter(known).map((payload) => [payload.user_id, toPeer(payload)])) }),
  reset: () => set({ presence: {} }),
}));

/** What the signed-in user may see of `userId`'s presence; undefined: nothing. */
export const usePeerPresence = (userId: number) => usePresenceStore((state) => state.presence[userId]);
