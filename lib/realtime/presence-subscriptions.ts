// Whose presence this tab follows: the open conversation's person first, then the people of the
// conversation list, newest first, MAX_PRESENCE_SUBSCRIPTIONS at most. The list goes to the server
// (`presence_subscribe`) on every connection and whenever it changes (debounced); the answer holds
// the state of those the server lets the user see, and their changes then arrive as `presence`
// events (wired in session-events.ts). Someone the user could not see may become visible (they
// followed the user, or wrote): the list is sent again when they do. The list also tells the
// server who this tab shows, so changes to what may be done with them (deleted, who may message
// them) reach it: it is sent even while the user hides presence (the server then tells none).
// While the connection is down nothing is known of anyone: what was shown is dropped, and the
// next connection's answer shows it again.
import { MAX_PRESENCE_SUBSCRIPTIONS } from '@/lib/contract';
import { socketService } from '@/lib/socket/socket-service';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useSessionStore } from '@/lib/stores/session-store';

/** Changes in a burst (a page of the list, a reconnect's reload) go out as one subscription. */
const DEBOUNCE_MS = 300;
/** A refused subscription (rate limit, server busy) is tried again after this long. */
const RETRY_MS = 10_000;

export interface PresenceSubscriptions {
  /** `userId` just reached out (a message, a follow): if they are followed but not yet seen, ask again. */
  noteContact(userId: number): void;
  stop(): void;
}

/** The people to follow now; null while the user is not known yet. */
function wanted(): number[] | null {
  const { user, receiver } = useSessionStore.getState();
  if (!user) return null;
  const ids = new Set<number>();
  if (receiver !== null) ids.add(receiver);
  for (const row of useConversationsStore.getState().conversations) {
    if (ids.size >= MAX_PRESENCE_SUBSCRIPTIONS) break;
    ids.add(row.user.id);
  }
  return [...ids];
}

/** The same people, whatever the order (the list reordering asks nothing new of the server). */
const samePeople = (a: readonly number[], b: readonly number[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

export function startPresenceSubscriptions(): PresenceSubscriptions {
  /** What the server holds for this connection; null: nothing yet (or to be sent again). */
  let sent: number[] | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticket = 0;
  let stopped = false;

  function schedule(delayMs = DEBOUNCE_MS): void {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), delayMs);
  }

  async function flush(): Promise<void> {
    const ids = wanted();
    // Not connected: the next `ready` sends it.
    if (stopped || ids === null || !socketService.isReady()) return;
    if (sent !== null && samePeople(ids, sent)) return;
    const mine = ++ticket;
    sent = ids;
    const ack = await socketService.request('presence_subscribe', { user_ids: ids });
    if (mine !== ticket || stopped) return;
    if ('error' in ack) {
      sent = null;
      return schedule(RETRY_MS);
    }
    // Someone who hides their own presence sees no one's (docs/DECISIONS.md, "Live signals").
    usePresenceStore.getState().replace(useSessionStore.getState().user?.show_presence ? ack.data.presence : []);
  }

  const stops = [
    // A new connection holds no subscription: send the list at once.
    socketService.on('ready', () => {
      sent = null;
      clearTimeout(timer);
      void flush();
    }),
    // Offline, "Online" would be a guess: shown as unknown until the next connection's answer.
    socketService.on('status', (status) => {
      if (status === 'connected') return;
      sent = null;
      usePresenceStore.getState().reset();
    }),
    useConversationsStore.subscribe((state, previous) => {
      if (state.conversations !== previous.conversations) schedule();
    }),
    useSessionStore.subscribe((state, previous) => {
      // Sharing turned on again: the same list is asked again, for presence the server now tells.
      if (state.user?.show_presence !== previous.user?.show_presence) sent = null;
      if (state.receiver !== previous.receiver || state.user?.show_presence !== previous.user?.show_presence) schedule();
    }),
  ];

  return {
    noteContact(userId) {
      if (sent?.includes(userId) && !(userId in usePresenceStore.getState().presence)) {
        sent = null;
        schedule();
      }
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const stop of stops) stop();
      usePresenceStore.getState().reset();
    },
  };
}
