// Keeps the offline snapshot (offline-snapshot.ts) in step with the signed-in session: written when
// the session starts and whenever the conversation list changes (a second later, once, or at once
// when the browser goes offline or leaves the page: an offline start may be next), deleted at
// sign-out. Failures are dropped: the snapshot only improves an offline start.
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { onSignOut } from '@/lib/session/sign-out';
import { getStoredToken } from '@/lib/session/storage';
import type { Conversation } from '@/lib/contract';
import { OFFLINE_NAMES_MAX, type OfflineSnapshotStorage } from './offline-snapshot';

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
  const save = () => {
    timer = null;
    const token = getStoredToken();
    if (token === null) return;
    const names = namesOf(useConversationsStore.getState().conversations);
    storage.save(token, { userId, names }).catch(() => {});
  };
  const schedule = () => {
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  };
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    save();
  };
  save();
  window.addEventListener('offline', flush);
  window.addEventListener('pagehide', flush);
  const unsubscribe = useConversationsStore.subscribe((state, previous) => {
    if (state.conversations !== previous.conversations) schedule();
  });
  const stopOnSignOut = onSignOut(() => {
    storage.clear().catch(() => {});
  });
  return () => {
    window.removeEventListener('offline', flush);
    window.removeEventListener('pagehide', flush);
    unsubscribe();
    stopOnSignOut();
    if (timer !== null) clearTimeout(timer);
  };
}
