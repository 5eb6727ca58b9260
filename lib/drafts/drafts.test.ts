import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexedDbOutboxStorage } from '@/lib/outbox/outbox-storage';
import { readMirror } from './draft-mirror';
import { createIndexedDbDraftStorage, createMemoryDraftStorage, keepTyped, readDraft, storeDraft, type DraftStorage } from './drafts';

describe('drafts', () => {
  for (const [name, make] of [
    ['IndexedDB', () => createIndexedDbDraftStorage(new IDBFactory())],
    ['memory', () => createMemoryDraftStorage()],
  ] as const) {
    it(`${name}: one draft per conversation and per user, until cleared`, async () => {
      const drafts = make();
      await drafts.save(7, 2, 'half a thought', 1_000);
      await drafts.save(7, 3, 'another');
      await drafts.save(8, 2, 'someone else’s');
      expect(await drafts.load(7, 2)).toEqual({ text: 'half a thought', at: 1_000 });
      expect((await drafts.load(7, 3))?.text).toBe('another');
      expect((await drafts.load(8, 2))?.text).toBe('someone else’s');
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
    expect((await createIndexedDbDraftStorage(factory).load(7, 2))?.text).toBe('kept');
    expect(await createIndexedDbOutboxStorage(factory).load(7)).toHaveLength(1);
  });
});

describe('drafts typed just before the page goes away', () => {
  afterEach(() => sessionStorage.clear());

  /** IndexedDB as a reload finds it when the page went before its last write committed. */
  function lossy(real: DraftStorage): DraftStorage {
    return { load: real.load, save: () => new Promise(() => undefined) };
  }

  it('the last keys are read back although their IndexedDB write never finished, and are stored then', async () => {
    const real = createIndexedDbDraftStorage(new IDBFactory());
    await storeDraft(7, 2, 'thought', keepTyped(7, 2, 'thought'), real);
    void storeDraft(7, 2, 'thought and more', keepTyped(7, 2, 'thought and more'), lossy(real));

    expect((await readDraft(7, 2, real))?.text).toBe('thought and more');
    // Caught up: the stored copy has it, and this tab's mirror is no longer needed.
    expect((await real.load(7, 2))?.text).toBe('thought and more');
    expect(readMirror(7, 2)).toBeNull();
  });

  it('an emptied box wins over the older stored draft', async () => {
    const real = createMemoryDraftStorage();
    await storeDraft(7, 2, 'sent a moment ago', keepTyped(7, 2, 'sent a moment ago'), real);
    void storeDraft(7, 2, '', keepTyped(7, 2, ''), lossy(real));
    expect(await readDraft(7, 2, real)).toBeNull();
    expect(await real.load(7, 2)).toBeNull();
  });

  it('a newer stored draft (typed in another tab since) wins over this tab’s older mirror', async () => {
    const real = createMemoryDraftStorage();
    void storeDraft(7, 2, 'typed here', keepTyped(7, 2, 'typed here'), lossy(real));
    await real.save(7, 2, 'typed in another tab later', Date.now() + 60_000);
    expect((await readDraft(7, 2, real))?.text).toBe('typed in another tab later');
  });

  it('keeps drafts apart per user and conversation', async () => {
    const real = createMemoryDraftStorage();
    keepTyped(7, 2, 'to two');
    keepTyped(7, 3, 'to three');
    keepTyped(8, 2, 'another user’s');
    expect((await readDraft(7, 2, real))?.text).toBe('to two');
    expect((await readDraft(7, 3, real))?.text).toBe('to three');
    expect((await readDraft(8, 2, real))?.text).toBe('another user’s');
  });
});
