import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ack, ConversationMessage, SendPayload } from '@/lib/contract';
import { conversationMessage } from '@/lib/testing/fixtures';
import { createOutbox, type OutboxOptions } from './outbox';
import { createIndexedDbOutboxStorage, createMemoryOutboxStorage, type OutboxEntry, type OutboxStorage } from './outbox-storage';

const entry = (n: number, fields: Partial<OutboxEntry> = {}): Omit<OutboxEntry, 'position'> => ({
  client_id: `00000000-0000-4000-8000-00000000000${n}`,
  sender_id: 7,
  recipient_id: 2,
  text: `m${n}`,
  attachment: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

/** A server that answers each send with the next scripted answer (default: stored). */
function fakeServer() {
  const sent: SendPayload[] = [];
  const answers: Array<(payload: SendPayload) => Ack<ConversationMessage>> = [];
  const stored = (payload: SendPayload): Ack<ConversationMessage> => ({
    data: conversationMessage(sent.length, { client_id: payload.client_id, text: payload.text, sender_id: 7, peer: payload.recipient_id }),
  });
  return {
    sent,
    answers,
    send: vi.fn(async (payload: SendPayload) => {
      sent.push(payload);
      return (answers.shift() ?? stored)(payload);
    }),
  };
}

describe('outbox', () => {
  let storage: OutboxStorage;
  let server: ReturnType<typeof fakeServer>;
  let ready: boolean;
  let options: OutboxOptions;

  beforeEach(() => {
    vi.useFakeTimers();
    storage = createMemoryOutboxStorage();
    server = fakeServer();
    ready = true;
    options = {
      storage,
      send: server.send,
      isReady: () => ready,
      onSent: vi.fn(),
      onRefused: vi.fn(),
      random: () => 0.5, // no jitter: delays are exactly base × 2^n
    };
  });
  afterEach(() => vi.useRealTimers());

  it('sends entries one at a time, oldest first, and forgets each once acknowledged', async () => {
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await outbox.enqueue(entry(2));
    await outbox.enqueue(entry(3));
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(3));
    expect(server.sent.map((payload) => payload.text)).toEqual(['m1', 'm2', 'm3']);
    expect(await storage.load(7)).toEqual([]);
    expect(outbox.pending()).toEqual([]);
  });

  it('keeps an entry stored until the ack, and never has two in flight', async () => {
    let release!: () => void;
    options.send = vi.fn(
      (payload: SendPayload) =>
        new Promise<Ack<ConversationMessage>>((resolve) => {
          release = () => resolve({ data: conversationMessage(1, { sender_id: 7, client_id: payload.client_id }) });
        }),
    );
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await outbox.enqueue(entry(2));
    expect(options.send).toHaveBeenCalledTimes(1);
    expect((await storage.load(7)).map((stored) => stored.text)).toEqual(['m1', 'm2']);
    release();
    await vi.waitFor(() => expect(options.send).toHaveBeenCalledTimes(2));
    expect((await storage.load(7)).map((stored) => stored.text)).toEqual(['m2']);
  });

  it('retries a passing failure with the same client id, backing off 1 s, 2 s, 4 s', async () => {
    const transient = (): Ack<ConversationMessage> => ({ error: { msg: 'operation has timed out' } });
    server.answers.push(transient, transient, transient);
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await outbox.enqueue(entry(2));
    expect(server.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(4_000);
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(2));
    // The same message four times (one client id), then the next one: order is kept.
    expect(server.sent.map((payload) => payload.client_id)).toEqual([
      ...Array(4).fill(entry(1).client_id),
      entry(2).client_id,
    ]);
  });

  it('waits while not connected and goes at once on flush (a reconnect)', async () => {
    ready = false;
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.sent).toHaveLength(0);
    ready = true;
    outbox.flush();
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(1));
  });

  it('drops a refused entry, reports it, and goes on with the next', async () => {
    server.answers.push(() => ({ error: { non_field_errors: ['recipient_id: User not found.'] } }));
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await outbox.enqueue(entry(2));
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(1));
    expect(options.onRefused).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ text: 'm1' }),
      { non_field_errors: ['recipient_id: User not found.'] },
    );
    expect(await storage.load(7)).toEqual([]);
  });

  it('resumes what storage holds for the sender after a reload, before anything new, and only theirs', async () => {
    const before = createOutbox({ ...options, isReady: () => false });
    await before.start(7);
    await before.enqueue(entry(1));
    await before.enqueue(entry(2));
    await storage.put({ ...entry(9, { sender_id: 8 }), position: 1 });

    const after = createOutbox(options);
    const resumed = await after.start(7);
    expect(resumed.map((stored) => stored.text)).toEqual(['m1', 'm2']);
    await after.enqueue(entry(3));
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(3));
    expect(server.sent.map((payload) => payload.text)).toEqual(['m1', 'm2', 'm3']);
    expect((await storage.load(8)).map((stored) => stored.text)).toEqual(['m9']);
  });

  it('stops sending at sign-out and ignores an answer that arrives after it', async () => {
    let answer!: (ack: Ack<ConversationMessage>) => void;
    options.send = vi.fn(() => new Promise<Ack<ConversationMessage>>((resolve) => (answer = resolve)));
    const outbox = createOutbox(options);
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    outbox.stop();
    answer({ data: conversationMessage(1, { sender_id: 7, client_id: entry(1).client_id }) });
    await vi.advanceTimersByTimeAsync(10);
    expect(options.onSent).not.toHaveBeenCalled();
    expect(outbox.pending()).toEqual([]);
    // Still stored: it goes out in the sender's next session.
    expect((await storage.load(7)).map((stored) => stored.text)).toEqual(['m1']);
  });

  it('keeps working in memory when storage fails', async () => {
    const onStorageError = vi.fn();
    const broken: OutboxStorage = {
      load: () => Promise.reject(new Error('no IndexedDB')),
      put: () => Promise.reject(new Error('quota')),
      remove: () => Promise.reject(new Error('quota')),
    };
    const outbox = createOutbox({ ...options, storage: broken, onStorageError });
    await outbox.start(7);
    await outbox.enqueue(entry(1));
    await vi.waitFor(() => expect(options.onSent).toHaveBeenCalledTimes(1));
    expect(onStorageError).toHaveBeenCalled();
  });
});

describe('IndexedDB outbox storage', () => {
  it('keeps entries per sender in queue order across connections to the database', async () => {
    const factory = new IDBFactory();
    const first = createIndexedDbOutboxStorage(factory);
    await first.put({ ...entry(2), position: 20 });
    await first.put({ ...entry(1), position: 10 });
    await first.put({ ...entry(3, { sender_id: 8 }), position: 5 });

    const reopened = createIndexedDbOutboxStorage(factory);
    expect((await reopened.load(7)).map((stored) => stored.text)).toEqual(['m1', 'm2']);
    await reopened.remove(entry(1));
    expect((await reopened.load(7)).map((stored) => stored.text)).toEqual(['m2']);
    expect((await reopened.load(8)).map((stored) => stored.text)).toEqual(['m3']);
  });
});
