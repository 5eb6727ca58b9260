import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountItem, Ack, ChangeResult } from '@/lib/contract';
import { createMemoryHideStorage, type HideStorage } from '@/lib/outbox/hide-storage';
import { useHidingStore, withoutPending } from '@/lib/stores/hiding-store';
import { settle } from '@/lib/testing/deferred';
import { conversationIdOf, ME } from '@/lib/testing/fixtures';
import { UNDO_MS, createDelayedHides } from './delayed-hides';

/** The ack's change: the account's `hide` item, at its own seq. */
const change = (messageId: number): AccountItem => ({ seq: 40, conversation_id: conversationIdOf(2), kind: 'hide', message_id: messageId, preview: null });
const done = (messageId: number): Ack<ChangeResult> => ({ data: { change: change(messageId) } });

describe('delete for me, with Undo', () => {
  let storage: HideStorage;
  let send: ReturnType<typeof vi.fn<(messageId: number) => Promise<Ack<ChangeResult>>>>;
  let apply: ReturnType<typeof vi.fn<(change: NonNullable<ChangeResult['change']>) => void>>;
  const start = () => createDelayedHides({ userId: ME, storage, send, apply });
  const pendingIds = () => useHidingStore.getState().pending.map((entry) => entry.messageId);

  beforeEach(() => {
    vi.useFakeTimers();
    useHidingStore.getState().reset();
    storage = createMemoryHideStorage();
    send = vi.fn(async (messageId: number) => done(messageId));
    apply = vi.fn();
  });
  afterEach(() => vi.useRealTimers());

  it('takes the message out of the thread at once and sends the deletion only when the Undo time is over', async () => {
    const hides = start();
    hides.hide(2, 11);
    const thread = [{ id: 10 }, { id: 11 }, { id: null }];
    expect(withoutPending(thread, useHidingStore.getState().pending)).toEqual([{ id: 10 }, { id: null }]);
    expect(await storage.load(ME)).toEqual([{ user_id: ME, message_id: 11, peer_id: 2 }]);

    await vi.advanceTimersByTimeAsync(UNDO_MS - 1);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledExactlyOnceWith(11);
    await settle();
    // The server's change now keeps it out; nothing is left waiting.
    expect(apply).toHaveBeenCalledWith(change(11));
    expect(pendingIds()).toEqual([]);
    expect(await storage.load(ME)).toEqual([]);
    hides.stop();
  });

  it('Undo shows the message again only once the storage has let go of it, and nothing sends it meanwhile', async () => {
    let release: () => void = () => undefined;
    const memory = storage;
    storage = { ...memory, remove: (...args) => new Promise<void>((resolve) => (release = () => void memory.remove(...args).then(resolve))) };
    const hides = start();
    hides.hide(2, 11);
    expect(hides.undo(11)).toBe(true);
    // The page closing now (sendAll) must not send what was undone.
    hides.sendAll();
    await settle();
    expect(pendingIds()).toEqual([11]);
    expect(send).not.toHaveBeenCalled();
    release();
    await settle();
    expect(pendingIds()).toEqual([]);
    expect(await storage.load(ME)).toEqual([]);
    await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
    expect(send).not.toHaveBeenCalled();
    hides.stop();
  });

  it('Undo within the time puts it back and sends nothing; after the time it is too late', async () => {
    const hides = start();
    hides.hide(2, 11);
    await vi.advanceTimersByTimeAsync(UNDO_MS / 2);
    expect(hides.undo(11)).toBe(true);
    await settle();
    expect(pendingIds()).toEqual([]);
    await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
    expect(send).not.toHaveBeenCalled();
    expect(await storage.load(ME)).toEqual([]);

    hides.hide(2, 12);
    await vi.advanceTimersByTimeAsync(UNDO_MS);
    expect(hides.undo(12)).toBe(false);
    expect(send).toHaveBeenCalledExactlyOnceWith(12);
    hides.stop();
  });

  it('sends everything at once when the page closes, Undo time or not', async () => {
    const hides = start();
    hides.hide(2, 11);
    hides.hide(3, 12);
    hides.sendAll();
    expect(send.mock.calls).toEqual([[11], [12]]);
    expect(useHidingStore.getState().pending.every((entry) => !entry.undoable)).toBe(true);
    hides.stop();
  });

  it('keeps a deletion that did not get through, hidden, and sends it again on the next connection; a refusal shows the message again', async () => {
    send.mockResolvedValueOnce({ error: { msg: 'Not connected.' } });
    const hides = start();
    hides.hide(2, 11);
    await vi.advanceTimersByTimeAsync(UNDO_MS);
    expect(pendingIds()).toEqual([11]);
    expect(await storage.load(ME)).toHaveLength(1);
    hides.retry();
    await settle();
    expect(send).toHaveBeenCalledTimes(2);
    expect(pendingIds()).toEqual([]);

    send.mockResolvedValueOnce({ error: { non_field_errors: ['message_id: Message not found.'] } });
    hides.hide(2, 13);
    hides.sendAll();
    await settle();
    expect(pendingIds()).toEqual([]);
    expect(await storage.load(ME)).toEqual([]);
    hides.stop();
  });

  it('sends, at the next start, what a closed page had not got through, keeping it out of sight meanwhile', async () => {
    await storage.put({ user_id: ME, message_id: 21, peer_id: 2 });
    await storage.put({ user_id: 99, message_id: 22, peer_id: 2 });
    let answer!: (ack: Ack<ChangeResult>) => void;
    send.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const hides = start();
    await settle();
    // Someone else's (another account signed in before on this browser) is not this user's to send.
    expect(send).toHaveBeenCalledExactlyOnceWith(21);
    expect(useHidingStore.getState().pending).toEqual([{ messageId: 21, peerId: 2, undoable: false }]);
    answer(done(21));
    await settle();
    expect(pendingIds()).toEqual([]);
    hides.stop();
  });
});
