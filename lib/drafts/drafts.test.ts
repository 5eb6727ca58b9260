import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIndexedDbOutboxStorage } from '@/lib/outbox/outbox-storage';
import { createIndexedDbDraftStorage, createMemoryDraftStorage } from './drafts';

describe('drafts', () => {
  for (const [name, make] of [
    ['IndexedDB', () => createIndexedDbDraftStorage(new IDBFactory())],
    ['memory', () => createMemoryDraftStorage()],
  ] as const) {
    it(`${name}: one draft per conversation and per user, until cleared`, async () => {
      const drafts = make();
      await drafts.save(7, 2, 'half a thought');
      await drafts.save(7, 3, 'another');
      await drafts.save(8, 2, 'someone else’s');
      expect(await drafts.load(7, 2)).toBe('half a thought');
      expect(await drafts.load(7, 3)).toBe('another');
      expect(await drafts.load(8, 2)).toBe('someone else’s');
      await drafts.save(7, 2, '   ');
      expect(await drafts.load(7, 2)).toBeNull();
      expect(await drafts.load(9, 9)).toBeNull();
    });
  }

  it('survives reopening the database, next to the outbox in the same database', async () => {
    const factory = new IDBFactory();
    await createIndexedDbOutboxStorage(factory).put({
      client_id: 'c1',
      sender_id: 7,
      recipient_id: 2,
      text: 'queued',
      attachment: null,
      created_at: '2025-01-01T00:00:00.000Z',
      position: 1,
    });
    await createIndexedDbDraftStorage(factory).save(7, 2, 'kept');
    expect(await createIndexedDbDraftStorage(factory).load(7, 2)).toBe('kept');
    expect(await createIndexedDbOutboxStorage(factory).load(7)).toHaveLength(1);
  });
});
