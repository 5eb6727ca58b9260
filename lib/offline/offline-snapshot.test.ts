import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversation, message } from '@/lib/testing/fixtures';
import { createOfflineSnapshotStorage, type OfflineSnapshot, type OfflineSnapshotStorage } from './offline-snapshot';

const snapshot = (userId: number, names: Record<number, string>): OfflineSnapshot => ({
  userId,
  names,
  conversations: [conversation(2, message(1))],
  recent: [2],
  savedAt: '2026-11-01T10:00:00.000Z',
});

describe('offline snapshot', () => {
  let factory: IDBFactory;
  let storage: OfflineSnapshotStorage;
  beforeEach(() => {
    factory = new IDBFactory();
    storage = createOfflineSnapshotStorage(factory);
  });
  afterEach(() => storage.clear());

  it('gives back what was saved under the same token only', async () => {
    await storage.save('token-a', snapshot(7, { 2: 'Bob' }));
    expect(await storage.load('token-a')).toEqual(snapshot(7, { 2: 'Bob' }));
    // Another session's token (a new sign-in on this browser) reads nothing of the previous one.
    expect(await storage.load('token-b')).toBeNull();
  });

  it('keeps one snapshot, the latest, and none after clear', async () => {
    await storage.save('token-a', snapshot(7, {}));
    await storage.save('token-b', snapshot(8, { 3: 'Cleo' }));
    expect(await storage.load('token-a')).toBeNull();
    expect(await storage.load('token-b')).toEqual(snapshot(8, { 3: 'Cleo' }));
    await storage.clear();
    expect(await storage.load('token-b')).toBeNull();
  });

  it('keeps each conversation’s messages apart, under the token, until deleted or cleared', async () => {
    const bob = { peerId: 2, messages: [message(1), message(2)], savedAt: '2026-11-01T10:00:00.000Z' };
    await storage.saveThread('token-a', bob);
    await storage.saveThread('token-a', { peerId: 3, messages: [message(5, { sender_id: 3 })], savedAt: bob.savedAt });
    // Read again by a page loaded later (a reload offline).
    const later = createOfflineSnapshotStorage(factory);
    expect(await later.loadThread('token-a', 2)).toEqual(bob);
    expect(await later.loadThread('token-b', 2)).toBeNull();
    await later.deleteThread(2);
    expect(await later.loadThread('token-a', 2)).toBeNull();
    expect(await later.loadThread('token-a', 3)).not.toBeNull();
    await later.clear();
    expect(await later.loadThread('token-a', 3)).toBeNull();
  });
});
