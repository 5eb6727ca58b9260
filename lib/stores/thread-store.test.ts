import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationThreadPage, Profile } from '@/lib/contract';
import { deferred } from '@/lib/testing/deferred';
import { account, conversationIdOf, conversationMessage, ME, message, summary, threadPage, user } from '@/lib/testing/fixtures';
import { useConversationsStore } from './conversations-store';
import { useDirectConversations } from './direct-conversations';
import { useHidingStore } from './hiding-store';
import { useSessionStore } from './session-store';
import { messageKey } from './thread-messages';
import { findLocal, useThreadStore } from './thread-store';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
  listConversations: vi.fn(),
  getProfile: vi.fn<(id: number) => Promise<Profile>>(),
}));
vi.mock('@/lib/api/conversations', () => ({ listMessages: api.listMessages, listConversations: api.listConversations }));
vi.mock('@/lib/api/users', () => ({ getProfile: api.getProfile }));

const threads = () => useThreadStore.getState();
const thread = (peerId = 2) => threads().threads[peerId];
const shown = (peerId = 2) => (thread(peerId)?.messages ?? []).map((m) => m.id ?? m.status);
const profile = (id: number, conversationId: number | null): Profile => ({ ...user(id), followers_count: 0, following_count: 0, blocked: false, can_message: true, conversation_id: conversationId });

// The user is signed in and already knows their conversations with 2 and 4 (the list named them);
// every store goes back to its initial state after each test (testing/client/zustand.ts).
beforeEach(() => {
  api.listMessages.mockReset();
  api.getProfile.mockReset();
  useSessionStore.getState().publishUser(account());
  useDirectConversations.getState().learn(conversationIdOf(2), 2);
  useDirectConversations.getState().learn(conversationIdOf(4), 4);
});

describe('thread store: history', () => {
  it('loads the newest page once and older pages by cursor, oldest first', async () => {
    api.listMessages
      .mockResolvedValueOnce(threadPage([conversationMessage(4), conversationMessage(3)], { next_cursor: 'older' }))
      .mockResolvedValueOnce(threadPage([conversationMessage(2), conversationMessage(1)]));
    await threads().loadThread(2);
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ status: 'ready', nextCursor: 'older' });
    await threads().loadOlder(2);
    expect(api.listMessages.mock.calls).toEqual([[conversationIdOf(2)], [conversationIdOf(2), 'older']]);
    expect(shown()).toEqual([1, 2, 3, 4]);
    await threads().loadOlder(2);
    expect(api.listMessages).toHaveBeenCalledTimes(2);
  });

  it('a failed load is reported and can be tried again', async () => {
    api.listMessages.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(threadPage([conversationMessage(1)]));
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ status: 'error', error: 'Can’t reach Parley. Check your connection.', errorKind: 'network' });
    await threads().loadThread(2);
    expect(shown()).toEqual([1]);
  });

  it('live messages land in a held thread in order, without duplicates, even while it loads', async () => {
    const page = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(page.promise);
    const loading = threads().loadThread(2);
    threads().receiveMessage(2, message(6));
    page.resolve(threadPage([conversationMessage(6), conversationMessage(5)]));
    await loading;
    threads().receiveMessage(2, message(7));
    threads().receiveMessage(2, message(7));
    expect(shown()).toEqual([5, 6, 7]);
    threads().receiveMessage(3, message(8, { sender_id: 3 }));
    expect(thread(3)).toBeUndefined();
  });

  it('a batch of messages (a sync page) merges into every held thread in one update, in order, without duplicates', async () => {
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(3), conversationMessage(2)]));
    await threads().loadThread(2);
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(4, { sender_id: 4 })]));
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
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(1)]));
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
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(1)]));
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

  it('a message deleted for the user while its page loads comes back neither with the page nor with a catch-up', async () => {
    const page = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(page.promise);
    const loading = threads().loadThread(2);
    // Deleted on another device while the page was on its way: the page was read before. (The
    // account's item, as applyAccountItem applies it.)
    useHidingStore.getState().hidden(5);
    threads().applyChanges([{ kind: 'hide', peer_id: 2, message_id: 5, preview: null }]);
    page.resolve(threadPage([conversationMessage(6), conversationMessage(5)]));
    await loading;
    expect(shown()).toEqual([6]);
    threads().receiveMessage(2, message(5));
    expect(shown()).toEqual([6]);
  });

  it('reset forgets every thread and drops the answer of a request made before it', async () => {
    const page = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(page.promise);
    const loading = threads().loadThread(2);
    threads().reset();
    page.resolve(threadPage([conversationMessage(1)]));
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
    // The peer read up to seq 3 of the conversation (this very message) before its ack came back.
    threads().applyChanges([{ kind: 'seen', peer_id: 2, seq: 3, read_at: '2026-11-24T00:00:05.000Z' }]);
    threads().settleLocal(2, messageKey(local), message(9, { sender_id: ME, recipient_id: 2, client_id: 'c-2', read_at: null, seq: 3, version: 3 }));
    expect(thread(2)!.messages.find((m) => m.id === 9)).toMatchObject({ read_at: '2026-11-24T00:00:05.000Z' });
    // A later message of the user's is not covered by it.
    threads().receiveMessages([{ peerId: 2, message: message(10, { sender_id: ME, recipient_id: 2, client_id: 'c-3', read_at: null, seq: 4, version: 4 }) }]);
    expect(thread(2)!.messages.find((m) => m.id === 10)).toMatchObject({ read_at: null });
  });
});

describe('thread store: the conversation behind a thread', () => {
  it('a person with no conversation yet gets an empty ready thread without asking for a page', async () => {
    api.getProfile.mockResolvedValueOnce(profile(5, null));
    await threads().loadThread(5);
    expect(thread(5)).toMatchObject({ status: 'ready', messages: [], nextCursor: null, conversationId: null, streamSeq: null });
    expect(api.getProfile).toHaveBeenCalledExactlyOnceWith(5);
    expect(api.listMessages).not.toHaveBeenCalled();
  });

  it('the conversation a profile names is remembered, and the next page is asked for by it without the profile', async () => {
    api.getProfile.mockResolvedValueOnce(profile(5, conversationIdOf(5)));
    api.listMessages
      .mockResolvedValueOnce(threadPage([conversationMessage(4, { sender_id: 5 })], { next_cursor: 'older' }))
      .mockResolvedValueOnce(threadPage([conversationMessage(3, { sender_id: 5 })]));
    await threads().loadThread(5);
    expect(useDirectConversations.getState()).toMatchObject({ byPeer: { 5: conversationIdOf(5) }, byConversation: { [conversationIdOf(5)]: 5 } });
    await threads().loadOlder(5);
    expect(api.listMessages.mock.calls).toEqual([[conversationIdOf(5)], [conversationIdOf(5), 'older']]);
    expect(api.getProfile).toHaveBeenCalledTimes(1);
    expect(shown(5)).toEqual([3, 4]);
  });

  it('the newest page says where the thread stands: its conversation, the seq it was read at, and who read what', async () => {
    const seenAt = '2025-01-01T13:00:00.000Z';
    // The peer's 1, 2 and 4, the user's 3 and 5; the user read up to seq 2, the peer up to seq 3,
    // and a change at seq 7 came after the newest message.
    const results = [5, 4, 3, 2, 1].map((seq) => conversationMessage(seq, seq === 3 || seq === 5 ? { sender_id: ME } : {}));
    api.listMessages.mockResolvedValueOnce(threadPage(results, { last_seq: 7, read_seq: 2, seen: [{ user_id: 2, seq: 3, read_at: seenAt }] }));
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ conversationId: conversationIdOf(2), streamSeq: 7, readSeq: 2, seen: { kind: 'seen', peer_id: 2, seq: 3, read_at: seenAt } });
    // The peer's messages say only that they are read; the user's say when the peer read them.
    expect(thread()!.messages.map((m) => [m.id, m.read_at])).toEqual([
      [1, expect.any(String)],
      [2, expect.any(String)],
      [3, seenAt],
      [4, null],
      [5, null],
    ]);
  });

  it('a conversation that becomes known binds a thread held without one from its start, and no thread that has one', async () => {
    api.getProfile.mockResolvedValueOnce(profile(5, null));
    await threads().loadThread(5);
    threads().bindConversation(5, conversationIdOf(5));
    expect(thread(5)).toMatchObject({ status: 'ready', conversationId: conversationIdOf(5), streamSeq: 0 });

    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(3)]));
    await threads().loadThread(2);
    const bound = thread(2);
    threads().bindConversation(2, 9999);
    expect(thread(2)).toBe(bound);
    expect(bound).toMatchObject({ conversationId: conversationIdOf(2), streamSeq: 3 });
  });

  it('an unloaded thread is gone, and loads afresh when opened again', async () => {
    api.listMessages
      .mockResolvedValueOnce(threadPage([conversationMessage(1)]))
      .mockResolvedValueOnce(threadPage([conversationMessage(5, { sender_id: 4 })]))
      .mockResolvedValueOnce(threadPage([conversationMessage(2), conversationMessage(1)]));
    await threads().loadThread(2);
    await threads().loadThread(4);
    threads().unload(2);
    expect(thread(2)).toBeUndefined();
    expect(thread(4)).toBeDefined();
    await threads().loadThread(2);
    expect(api.listMessages).toHaveBeenCalledTimes(3);
    expect(shown(2)).toEqual([1, 2]);
  });

  it('waits for the list on its way rather than asking a profile (a deleted person has none, and is on the list)', async () => {
    const list = deferred<unknown>();
    api.listConversations.mockReturnValueOnce(list.promise);
    void useConversationsStore.getState().loadConversations();
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(1, { sender_id: 6 })]));
    const loading = threads().loadThread(6);
    list.resolve({ results: [summary(6, conversationMessage(1, { sender_id: 6 }), 1, false, { user: user(6, { deleted: true }) })], next_cursor: null, account_cursor: '0.1.0.0' });
    await loading;
    expect(api.getProfile).not.toHaveBeenCalled();
    expect(api.listMessages).toHaveBeenCalledWith(conversationIdOf(6));
    expect(thread(6)).toMatchObject({ status: 'ready', conversationId: conversationIdOf(6) });
  });

  it('a profile that answers after sign-out teaches the next session nothing', async () => {
    const answer = deferred<Profile>();
    api.getProfile.mockReturnValueOnce(answer.promise);
    const loading = threads().loadThread(7);
    threads().reset();
    useDirectConversations.getState().reset();
    answer.resolve(profile(7, conversationIdOf(7)));
    await loading.catch(() => undefined);
    expect(useDirectConversations.getState().byPeer[7]).toBeUndefined();
  });

  it('an unloaded thread keeps what is not sent yet (a failed message’s text lives nowhere else)', async () => {
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(1)]));
    await threads().loadThread(2);
    const failed = { ...message(0, { sender_id: ME, recipient_id: 2, client_id: 'c-1', text: 'not sent' }), id: null, seq: null, version: null, status: 'failed' as const, error: 'Refused.' };
    threads().addLocal(failed);
    threads().unload(2);
    expect(thread(2)).toMatchObject({ status: 'idle', messages: [{ client_id: 'c-1', text: 'not sent', status: 'failed' }] });
  });
});
