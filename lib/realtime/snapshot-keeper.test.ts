import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '@/lib/session/sign-out';
import { getStoredToken, storeToken } from '@/lib/session/storage';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { fromServer } from '@/lib/stores/thread-messages';
import { emptyThread } from '@/lib/stores/thread-model';
import { useThreadStore } from '@/lib/stores/thread-store';
import { conversation, ME, message, user } from '@/lib/testing/fixtures';
import { OFFLINE_MESSAGES_MAX, OFFLINE_THREADS_MAX, type OfflineSnapshot, type OfflineSnapshotStorage, type OfflineThread } from '@/lib/offline/offline-snapshot';
import { keepOfflineSnapshot } from './snapshot-keeper';

vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

/** The storage's contract in memory: one snapshot and its threads, under the token they were saved with. */
function memorySnapshots(initial: { token: string; snapshot: OfflineSnapshot } | null = null) {
  let row = initial;
  const threads = new Map<number, { token: string; thread: OfflineThread }>();
  const storage: OfflineSnapshotStorage = {
    save: async (token, snapshot) => void (row = { token, snapshot }),
    load: async (token) => (row?.token === token ? row.snapshot : null),
    saveThread: async (token, thread) => void threads.set(thread.peerId, { token, thread }),
    loadThread: async (token, peerId) => (threads.get(peerId)?.token === token ? (threads.get(peerId)?.thread ?? null) : null),
    deleteThread: async (peerId) => void threads.delete(peerId),
    clear: async () => {
      row = null;
      threads.clear();
    },
  };
  return { storage, saved: () => row, thread: (peerId: number) => threads.get(peerId)?.thread ?? null, threadIds: () => [...threads.keys()].sort((a, b) => a - b) };
}

const bobRow = { ...conversation(2, message(1)), user: user(2, { username: 'Bob' }) };
const listReady = (conversations = [bobRow]) => useConversationsStore.setState({ conversations, status: 'ready' });
const threadOf = (peerId: number, count: number) =>
  useThreadStore.setState((state) => ({
    threads: {
      ...state.threads,
      [peerId]: { ...emptyThread, status: 'ready', messages: Array.from({ length: count }, (_, i) => fromServer(message(peerId * 1000 + i + 1, { sender_id: peerId, recipient_id: ME }))) },
    },
  }));

describe('keepOfflineSnapshot', () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
    storeToken('abc');
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('saves the user at once and the list a second after it changes, under the stored token', async () => {
    const kept = memorySnapshots();
    stop = keepOfflineSnapshot(ME, kept.storage);
    await vi.advanceTimersByTimeAsync(0);
    expect(kept.saved()).toMatchObject({ token: getStoredToken(), snapshot: { userId: ME, names: {}, conversations: [], recent: [] } });

    const cy = { ...conversation(3, message(2, { sender_id: 3 })), user: user(3, { username: null }) };
    listReady([bobRow, cy]);
    await vi.advanceTimersByTimeAsync(999);
    expect(kept.saved()?.snapshot.names).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    // Someone with no name is left out of the names: the offline screen calls them an unknown user anyway.
    expect(kept.saved()?.snapshot).toMatchObject({ userId: ME, names: { 2: 'Bob' }, conversations: [bobRow, cy] });
    expect(Date.parse(kept.saved()?.snapshot.savedAt ?? '')).not.toBeNaN();
  });

  it('saves a pending change at once when the browser goes offline or leaves the page', async () => {
    const kept = memorySnapshots();
    stop = keepOfflineSnapshot(ME, kept.storage);
    await vi.advanceTimersByTimeAsync(0);
    listReady();
    window.dispatchEvent(new Event('offline'));
    expect(kept.saved()?.snapshot.names).toEqual({ 2: 'Bob' });

    listReady([{ ...conversation(3, message(2, { sender_id: 3 })), user: user(3, { username: 'Cy' }) }]);
    window.dispatchEvent(new Event('pagehide'));
    expect(kept.saved()?.snapshot.names).toEqual({ 3: 'Cy' });
    // Nothing pending: nothing more to save when the timer would have fired.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kept.saved()?.snapshot.names).toEqual({ 3: 'Cy' });
  });

  it('keeps the newest messages of the conversations opened most recently, and lets go of older ones', async () => {
    const kept = memorySnapshots();
    stop = keepOfflineSnapshot(ME, kept.storage);
    await vi.advanceTimersByTimeAsync(0);
    useSessionStore.getState().setReceiver(2);
    threadOf(2, OFFLINE_MESSAGES_MAX + 5);
    await vi.advanceTimersByTimeAsync(1_000);
    const bob = kept.thread(2);
    expect(bob?.messages).toHaveLength(OFFLINE_MESSAGES_MAX);
    expect(bob?.messages.at(-1)?.id).toBe(2000 + OFFLINE_MESSAGES_MAX + 5);
    expect(kept.saved()?.snapshot.recent).toEqual([2]);

    // A message arrives in it later: kept too.
    threadOf(2, OFFLINE_MESSAGES_MAX + 6);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kept.thread(2)?.messages.at(-1)?.id).toBe(2000 + OFFLINE_MESSAGES_MAX + 6);

    // Opening more than are kept: the one opened longest ago goes.
    for (let peer = 3; peer < 3 + OFFLINE_THREADS_MAX; peer += 1) {
      useSessionStore.getState().setReceiver(peer);
      threadOf(peer, 1);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kept.saved()?.snapshot.recent).toHaveLength(OFFLINE_THREADS_MAX);
    expect(kept.saved()?.snapshot.recent).not.toContain(2);
    expect(kept.threadIds()).not.toContain(2);
    expect(kept.threadIds()).toHaveLength(OFFLINE_THREADS_MAX);
  });

  it('after a reload, keeps what was saved until the stores have their own', async () => {
    const saved: OfflineSnapshot = { userId: ME, names: { 2: 'Bob' }, conversations: [bobRow], recent: [2, 5], savedAt: '2026-11-01T10:00:00.000Z' };
    const kept = memorySnapshots({ token: getStoredToken() ?? '', snapshot: saved });
    useSessionStore.getState().setReceiver(9);
    stop = keepOfflineSnapshot(ME, kept.storage);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kept.saved()?.snapshot).toMatchObject({ names: { 2: 'Bob' }, conversations: [bobRow], recent: [9, 2, 5] });
  });

  it('deletes the snapshot and its threads at sign-out', async () => {
    const kept = memorySnapshots();
    stop = keepOfflineSnapshot(ME, kept.storage);
    await vi.advanceTimersByTimeAsync(0);
    useSessionStore.getState().setReceiver(2);
    threadOf(2, 3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kept.thread(2)).not.toBeNull();
    signOut();
    await vi.advanceTimersByTimeAsync(0);
    expect(kept.saved()).toBeNull();
    expect(kept.thread(2)).toBeNull();
  });
});
