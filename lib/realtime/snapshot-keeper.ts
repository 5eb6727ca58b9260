// Keeps the offline snapshot (offline-snapshot.ts) in step with the signed-in session: the list and
// the threads of the conversations opened most recently, written a second after they change (once),
// or at once when the browser goes offline or leaves the page (an offline start may be next), and
// deleted at sign-out. What the stores do not hold yet (a reload, before the list has loaded) keeps
// what was saved before. Failures are dropped: the snapshot only improves an offline start.
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { detached, storedOf } from '@/lib/stores/thread-model';
import { useThreadStore } from '@/lib/stores/thread-store';
import { onSignOut } from '@/lib/session/sign-out';
import { getStoredToken } from '@/lib/session/storage';
import type { Conversation } from '@/lib/contract';
import {
  OFFLINE_CONVERSATIONS_MAX,
  OFFLINE_MESSAGES_MAX,
  OFFLINE_NAMES_MAX,
  OFFLINE_THREADS_MAX,
  type OfflineSnapshot,
  type OfflineSnapshotStorage,
} from '@/lib/offline/offline-snapshot';

const SAVE_DELAY_MS = 1_000;

function namesOf(conversations: readonly Conversation[]): Record<number, string> {
  const names: Record<number, string> = {};
  for (const { user } of conversations.slice(0, OFFLINE_NAMES_MAX)) if (user.username) names[user.id] = user.username;
  return names;
}

/** Starts keeping `userId`'s snapshot; returns what stops it (the snapshot stays until sign-out). */
export function keepOfflineSnapshot(userId: number, storage: OfflineSnapshotStorage | null): () => void {
  if (!storage) return () => {};
  let timer: ReturnType<typeof setTimeout> | null = null;
  // What was saved before this session's stores had anything (read once, at start).
  let before: OfflineSnapshot | null = null;
  // Nothing is written before it is read: the stores' empty start would overwrite it.
  let read = false;
  let recent: number[] = [];
  // Threads changed since the last save, and conversations that left the recent ones.
  const changedThreads = new Set<number>();
  const dropped = new Set<number>();

  const save = () => {
    timer = null;
    const token = getStoredToken();
    if (token === null || !read) return;
    const list = useConversationsStore.getState();
    const conversations = list.status === 'ready' ? list.conversations.slice(0, OFFLINE_CONVERSATIONS_MAX) : (before?.conversations ?? []);
    const names = list.status === 'ready' ? namesOf(list.conversations) : (before?.names ?? {});
    const savedAt = new Date().toISOString();
    storage.save(token, { userId, names, conversations, recent, savedAt }).catch(() => {});
    for (const peerId of changedThreads) {
      const thread = useThreadStore.getState().threads[peerId];
      // A window around an older message is not the newest ones; a thread not loaded has none to keep.
      if (!thread || thread.status !== 'ready' || detached(thread)) continue;
      const messages = storedOf(thread.messages).slice(-OFFLINE_MESSAGES_MAX);
      storage.saveThread(token, { peerId, messages, savedAt }).catch(() => {});
    }
    changedThreads.clear();
    for (const peerId of dropped) storage.deleteThread(peerId).catch(() => {});
    dropped.clear();
  };
  const schedule = () => {
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  };
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    save();
  };

  const opened = (peerId: number) => {
    recent = [peerId, ...recent.filter((other) => other !== peerId)];
    for (const gone of recent.slice(OFFLINE_THREADS_MAX)) dropped.add(gone);
    recent = recent.slice(0, OFFLINE_THREADS_MAX);
    dropped.delete(peerId);
    changedThreads.add(peerId);
    schedule();
  };

  let stopped = false;
  const token = getStoredToken();
  void (token === null ? Promise.resolve(null) : storage.load(token).catch(() => null)).then((loaded) => {
    if (stopped) return;
    before = loaded;
    read = true;
    // Opened before the snapshot was read count first.
    recent = [...recent, ...(loaded?.recent ?? []).filter((peerId) => !recent.includes(peerId))].slice(0, OFFLINE_THREADS_MAX);
    save();
  });

  window.addEventListener('offline', flush);
  window.addEventListener('pagehide', flush);
  const stops = [
    useConversationsStore.subscribe((state, previous) => {
      if (state.conversations !== previous.conversations) schedule();
    }),
    useSessionStore.subscribe((state, previous) => {
      if (state.receiver !== null && state.receiver !== previous.receiver) opened(state.receiver);
    }),
    useThreadStore.subscribe((state, previous) => {
      for (const peerId of recent) {
        if (state.threads[peerId] === previous.threads[peerId]) continue;
        changedThreads.add(peerId);
        schedule();
      }
    }),
    onSignOut(() => {
      storage.clear().catch(() => {});
    }),
  ];
  const receiver = useSessionStore.getState().receiver;
  if (receiver !== null) opened(receiver);
  return () => {
    stopped = true;
    window.removeEventListener('offline', flush);
    window.removeEventListener('pagehide', flush);
    for (const stop of stops) stop();
    if (timer !== null) clearTimeout(timer);
  };
}
