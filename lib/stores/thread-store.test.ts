import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePayload, Page } from '@/lib/contract';
import { deferred } from '@/lib/testing/deferred';
import { ME, message } from '@/lib/testing/fixtures';
import { messageKey } from './thread-messages';
import { findLocal, useThreadStore } from './thread-store';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(userId: number, cursor?: string | null) => Promise<Page<MessagePayload>>>(),
  listConversations: vi.fn(),
}));
vi.mock('@/lib/api/conversations', () => api);

const threads = () => useThreadStore.getState();
const thread = (peerId = 2) => threads().threads[peerId];
const shown = (peerId = 2) => (thread(peerId)?.messages ?? []).map((m) => m.id ?? m.status);

describe('thread store: history', () => {
  beforeEach(() => {
    api.listMessages.mockReset();
  });

  it('loads the newest page once and older pages by cursor, oldest first', async () => {
    api.listMessages
      .mockResolvedValueOnce({ results: [message(4), message(3)], next_cursor: 'older' })
      .mockResolvedValueOnce({ results: [message(2), message(1)], next_cursor: null });
    await threads().loadThread(2);
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ status: 'ready', nextCursor: 'older' });
    await threads().loadOlder(2);
    expect(api.listMessages.mock.calls).toEqual([[2], [2, 'older']]);
    expect(shown()).toEqual([1, 2, 3, 4]);
    await threads().loadOlder(2);
    expect(api.listMessages).toHaveBeenCalledTimes(2);
  });

  it('a failed load is reported and can be tried again', async () => {
    api.listMessages.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce({ results: [message(1)], next_cursor: null });
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ status: 'error', error: 'Can’t reach Parley. Check your connection.', errorKind: 'network' });
    await threads().loadThread(2);
    expect(shown()).toEqual([1]);
  });

  it('live messages land in a held thread in order, without duplicates, even while it loads', async () => {
    const page = deferred<Page<MessagePayload>>();
    api.listMessages.mockReturnValueOnce(page.promise);
    const loading = threads().loadThread(2);
    threads().receiveMessage(2, message(6));
    page.resolve({ results: [message(6), message(5)], next_cursor: null });
    await loading;
    threads().receiveMessage(2, message(7));
    threads().receiveMessage(2, message(7));
    expect(shown()).toEqual([5, 6, 7]);
    threads().receiveMessage(3, message(8, { sender_id: 3 }));
    expect(thread(3)).toBeUndefined();
  });

  it('a batch of messages (a sync page) merges into every held thread in one update, in order, without duplicates', async () => {
    api.listMessages.mockResolvedValueOnce({ results: [message(3), message(2)], next_cursor: null });
    await threads().loadThread(2);
    api.listMessages.mockResolvedValueOnce({ results: [message(4, { sender_id: 4 })], next_cursor: null });
    await threads().loadThread(4);
    const updates = vi.fn();
    const unsubscribe = useThreadStore.subscribe(updates);
    // Out of order, one already held, one repeated, one for a thread not held.
    threads().receiveMessages([
      { peerId: 2, message: message(6) },
      { peerId: 2, message: message(3) },
      { peerId: 4, message: message(7, { sender_id: 4 }) },
      { peerId: 2, message: message(5) },
      { peerId: 2, message: message(6) },
      { peerId: 9, message: message(8, { sender_id: 9 }) },
    ]);
    unsubscribe();
    expect(updates).toHaveBeenCalledTimes(1);
    expect(shown(2)).toEqual([2, 3, 5, 6]);
    expect(shown(4)).toEqual([4, 7]);
    expect(thread(9)).toBeUndefined();
  });

  it('a 10,000-message catch-up in 500-message pages costs one update per page', async () => {
    api.listMessages.mockResolvedValueOnce({ results: [message(1)], next_cursor: null });
    await threads().loadThread(2);
    const updates = vi.fn();
    const unsubscribe = useThreadStore.subscribe(updates);
    for (let page = 0; page < 20; page++) {
      const batch = Array.from({ length: 500 }, (_, i) => ({ peerId: 2, message: message(2 + page * 500 + i) }));
      threads().receiveMessages(batch);
    }
    unsubscribe();
    expect(updates).toHaveBeenCalledTimes(20);
    const ids = shown(2);
    expect(ids).toHaveLength(10_001);
    expect(ids).toEqual(Array.from({ length: 10_001 }, (_, i) => i + 1));
  });

  it('a synced copy of a message still sending settles it (same sender and client id)', async () => {
    api.listMessages.mockResolvedValueOnce({ results: [message(1)], next_cursor: null });
    await threads().loadThread(2);
    useThreadStore.setState((state) => ({
      threads: {
        ...state.threads,
        2: {
          ...state.threads[2]!,
          messages: [...state.threads[2]!.messages, { ...message(0, { sender_id: ME, recipient_id: 2, client_id: 'c-1' }), id: null, seq: null, status: 'sending', error: null }],
        },
      },
    }));
    threads().receiveMessages([{ peerId: 2, message: message(9, { sender_id: ME, recipient_id: 2, client_id: 'c-1' }) }]);
    expect(shown(2)).toEqual([1, 9]);
  });

  it('reset forgets every thread and drops the answer of a request made before it', async () => {
    const page = deferred<Page<MessagePayload>>();
    api.listMessages.mockReturnValueOnce(page.promise);
    const loading = threads().loadThread(2);
    threads().reset();
    page.resolve({ results: [message(1)], next_cursor: null });
    await loading;
    expect(threads().threads).toEqual({});
  });

  it('local messages: added at the end, their status changed, then settled by the stored copy', () => {
    const local = { ...message(0, { sender_id: ME, recipient_id: 2, client_id: 'c-1' }), id: null, seq: null, status: 'sending' as const, error: null };
    threads().addLocal(local);
    threads().updateLocal(2, messageKey(local), { status: 'failed', error: 'nope' });
    expect(findLocal(threads(), 'c-1')).toMatchObject({ status: 'failed', error: 'nope' });
    threads().settleLocal(2, messageKey(local), message(9, { sender_id: ME, recipient_id: 2, client_id: 'c-1' }));
    expect(shown(2)).toEqual([9]);
    expect(findLocal(threads(), 'c-1')).toBeUndefined();
  });

  it('a read receipt that overtakes the ack of a message it covers still marks it read once stored', () => {
    threads().reset();
    const local = { ...message(0, { sender_id: ME, recipient_id: 2, client_id: 'c-2' }), id: null, seq: null, status: 'sending' as const, error: null };
    threads().addLocal(local);
    // The peer read up to 9 (this very message) before its ack came back.
    threads().applyChanges([{ kind: 'seen', seq: 30, message_id: 9, peer_id: 2, read_at: '2026-11-24T00:00:05.000Z' }]);
    threads().settleLocal(2, messageKey(local), message(9, { sender_id: ME, recipient_id: 2, client_id: 'c-2', read_at: null }));
    expect(thread(2)!.messages.find((m) => m.id === 9)).toMatchObject({ read_at: '2026-11-24T00:00:05.000Z' });
    // A later message of the user's is not covered by it.
    threads().receiveMessages([{ peerId: 2, message: message(10, { sender_id: ME, recipient_id: 2, client_id: 'c-3', read_at: null }) }]);
    expect(thread(2)!.messages.find((m) => m.id === 10)).toMatchObject({ read_at: null });
  });
});
