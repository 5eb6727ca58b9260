import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryOutboxStorage, withTabMirror, type OutboxEntry, type OutboxStorage } from './outbox-storage';

const entry = (clientId: string, position: number, senderId = 7): OutboxEntry => ({
  client_id: clientId,
  sender_id: senderId,
  recipient_id: 8,
  text: `text ${clientId}`,
  attachment: null,
  reply_to: null,
  created_at: '2026-11-29T07:00:00.000Z',
  position,
});

/** A store whose writes never commit: the page went away first. */
function neverCommits(): OutboxStorage {
  const memory = createMemoryOutboxStorage();
  return { load: memory.load, put: () => new Promise(() => {}), remove: memory.remove };
}

afterEach(() => sessionStorage.clear());

describe('outbox tab mirror', () => {
  it('a message whose write had not committed when the page reloaded is found, in its place, and stored', async () => {
    const before = withTabMirror(neverCommits());
    void before.put(entry('c2', 2));
    // The reload: the same tab's sessionStorage, a store without the entry (c1 had committed).
    const store = createMemoryOutboxStorage();
    await store.put(entry('c1', 1));
    await store.put(entry('c3', 3));
    const after = withTabMirror(store);
    expect((await after.load(7)).map((found) => found.client_id)).toEqual(['c1', 'c2', 'c3']);
    expect((await store.load(7)).map((found) => found.client_id)).toEqual(['c1', 'c2', 'c3']);
    // Stored: the mirror is gone, and another sender's entries were never in it.
    expect(sessionStorage.length).toBe(0);
    expect(await after.load(9)).toEqual([]);
  });

  it('keeps the copy only until the write commits, and a removal takes it at once', async () => {
    const store = createMemoryOutboxStorage();
    const mirrored = withTabMirror(store);
    const writing = mirrored.put(entry('c1', 1));
    expect(sessionStorage.length).toBe(1);
    await writing;
    expect(sessionStorage.length).toBe(0);

    void withTabMirror(neverCommits()).put(entry('c2', 2));
    expect(sessionStorage.length).toBe(1);
    await mirrored.remove(entry('c2', 2));
    expect(sessionStorage.length).toBe(0);
    expect((await mirrored.load(7)).map((found) => found.client_id)).toEqual(['c1']);
  });

  it('a copy the store already has is dropped, not doubled', async () => {
    void withTabMirror(neverCommits()).put(entry('c1', 1));
    const store = createMemoryOutboxStorage();
    await store.put(entry('c1', 1));
    expect((await withTabMirror(store).load(7)).map((found) => found.client_id)).toEqual(['c1']);
    expect(sessionStorage.length).toBe(0);
  });
});
