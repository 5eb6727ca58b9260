import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '@/lib/session/sign-out';
import { getStoredToken, storeToken } from '@/lib/session/storage';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { conversation, ME, message, user } from '@/lib/testing/fixtures';
import type { OfflineSnapshot, OfflineSnapshotStorage } from './offline-snapshot';
import { keepOfflineSnapshot } from './snapshot-keeper';

vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

/** The storage's contract in memory: one snapshot, under the token it was saved with. */
function memorySnapshots(): OfflineSnapshotStorage & { saved: () => { token: string; snapshot: OfflineSnapshot } | null } {
  let row: { token: string; snapshot: OfflineSnapshot } | null = null;
  return {
    save: async (token, snapshot) => void (row = { token, snapshot }),
    load: async (token) => (row?.token === token ? row.snapshot : null),
    clear: async () => void (row = null),
    saved: () => row,
  };
}

describe('keepOfflineSnapshot', () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
    storeToken('abc');
    useConversationsStore.getState().reset();
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('saves the user at once and the people of the list a second after it changes, under the stored token', async () => {
    const snapshots = memorySnapshots();
    stop = keepOfflineSnapshot(ME, snapshots);
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots.saved()).toEqual({ token: getStoredToken(), snapshot: { userId: ME, names: {} } });

    useConversationsStore.setState({
      conversations: [
        { ...conversation(2, message(1)), user: user(2, { username: 'Bob' }) },
        { ...conversation(3, message(2, { sender_id: 3 })), user: user(3, { username: null }) },
      ],
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(snapshots.saved()?.snapshot.names).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    // Someone with no name is left out: the offline screen calls them an unknown user anyway.
    expect(snapshots.saved()?.snapshot).toEqual({ userId: ME, names: { 2: 'Bob' } });
  });

  it('saves a pending change at once when the browser goes offline or leaves the page', async () => {
    const snapshots = memorySnapshots();
    stop = keepOfflineSnapshot(ME, snapshots);
    await vi.advanceTimersByTimeAsync(0);
    useConversationsStore.setState({ conversations: [{ ...conversation(2, message(1)), user: user(2, { username: 'Bob' }) }] });
    window.dispatchEvent(new Event('offline'));
    expect(snapshots.saved()?.snapshot.names).toEqual({ 2: 'Bob' });

    useConversationsStore.setState({ conversations: [{ ...conversation(3, message(2, { sender_id: 3 })), user: user(3, { username: 'Cy' }) }] });
    window.dispatchEvent(new Event('pagehide'));
    expect(snapshots.saved()?.snapshot.names).toEqual({ 3: 'Cy' });
    // Nothing pending: nothing more to save when the timer would have fired.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(snapshots.saved()?.snapshot.names).toEqual({ 3: 'Cy' });
  });

  it('deletes the snapshot at sign-out', async () => {
    const snapshots = memorySnapshots();
    stop = keepOfflineSnapshot(ME, snapshots);
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots.saved()).not.toBeNull();
    signOut();
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots.saved()).toBeNull();
  });
});
