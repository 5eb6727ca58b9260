import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineSnapshotStorage, type OfflineSnapshotStorage } from './offline-snapshot';

describe('offline snapshot', () => {
  let storage: OfflineSnapshotStorage;
  beforeEach(() => {
    storage = createOfflineSnapshotStorage(new IDBFactory());
  });
  afterEach(() => storage.clear());

  it('gives back what was saved under the same token only', async () => {
    await storage.save('token-a', { userId: 7, names: { 2: 'Bob' } });
    expect(await storage.load('token-a')).toEqual({ userId: 7, names: { 2: 'Bob' } });
    // Another session's token (a new sign-in on this browser) reads nothing of the previous one.
    expect(await storage.load('token-b')).toBeNull();
  });

  it('keeps one snapshot, the latest, and none after clear', async () => {
    await storage.save('token-a', { userId: 7, names: {} });
    await storage.save('token-b', { userId: 8, names: { 3: 'Cleo' } });
    expect(await storage.load('token-a')).toBeNull();
    expect(await storage.load('token-b')).toEqual({ userId: 8, names: { 3: 'Cleo' } });
    await storage.clear();
    expect(await storage.load('token-b')).toBeNull();
  });
});
