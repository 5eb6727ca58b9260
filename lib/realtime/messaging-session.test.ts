// The messaging session's life: what it does once started (the list read, the connection's
// status), catching up by conversation after a reconnect, and its end (starting again, signing out).
import { describe, expect, it, vi } from 'vitest';
import type { ConversationMessage, ConversationSummaryPage, ConversationThreadPage } from '@/lib/contract';
import { signOut } from '@/lib/session/sign-out';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { deferred, settle } from '@/lib/testing/deferred';
import { conversationIdOf, conversationMessage, ME, summary, threadPage, user } from '@/lib/testing/fixtures';
import { sendMessage, startMessagingSession, stopMessagingSession } from './messaging-session';
import { useViewStore } from '@/lib/stores/view-store';
import { FIRST_PAGE_LIMIT } from './catch-up';
import { openConversation } from '../routing/conversation-route';
import { getProfile } from '@/lib/api/users';
import { LIST_CURSOR, openAndSee, reads, setUpMessagingSession, socket, start, unreadFrom } from '@/lib/testing/session-harness';

const api = vi.hoisted(() => ({
  listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationSummaryPage>>(),
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async () => ({ ...user(3), followers_count: 0, following_count: 0, conversation_id: null })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

describe('messaging session: start, catch-up and stop', () => {
  setUpMessagingSession();

  it('loads the conversation list once started', async () => {
    await start();
    expect(useConversationsStore.getState()).toMatchObject({ status: 'ready' });
    expect(unreadFrom(2)).toBe(2);
  });

  it('the connection status reaches its store, including what happened before the session started', async () => {
    await start();
    expect(useConnectionStore.getState().status).toBe('connected');
    socket.transportDrops();
    expect(useConnectionStore.getState().status).toBe('connecting');
  });

  /** The account's answer after the list's cursor: the conversation with 2 moved, up to `last`. */
  const moved = (last: ConversationMessage, unread: number) => ({
    data: { items: [], conversations: [summary(2, last, unread, false, { last_seq: last.seq })], removed: [], cursor: '0.2.0.0', has_more: false },
  });

  it('after a reconnect it catches up: the account names what moved, with its row, and the open thread gets what it missed', async () => {
    await start();
    openAndSee(2);
    await settle();
    const syncs: unknown[] = [];
    const missed = conversationMessage(8, { seq: 2 });
    socket.ackResponder = async (event, payload) => {
      if (event.startsWith('sync')) syncs.push([event, payload]);
      if (event === 'sync_account') return moved(missed, 1);
      if (event === 'sync_conversation') {
        const seen = [{ user_id: 2, seq: 2, read_at: '2025-01-01T13:00:00.000Z' }];
        return { data: { conversation_id: conversationIdOf(2), messages: [missed], changes: [], through: 2, last_seq: 2, has_more: false, seen } };
      }
      return event === 'read' ? { data: { count: 0, unread_count: 0 } } : { data: null };
    };
    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]?.messages.map((m) => m.id)).toContain(8));
    expect(syncs).toEqual([
      ['sync_account', { cursor: LIST_CURSOR }],
      // The thread's page was read at seq 1: what came after it.
      ['sync_conversation', { conversation_id: conversationIdOf(2), after: 1, limit: FIRST_PAGE_LIMIT }],
    ]);
    expect(useConversationsStore.getState().conversations[0]?.last_message.id).toBe(8);
    // Where the other person's receipt stands came with it (a `seen` missed while away).
    expect(useThreadStore.getState().threads[2]?.seen).toMatchObject({ seq: 2, read_at: '2025-01-01T13:00:00.000Z' });
    // The list is not read again: the account's answer brought the row that moved.
    expect(api.listConversations).toHaveBeenCalledTimes(1);
    // The open conversation had an unread message again: read, once the last read is a moment old.
    await vi.waitFor(() => expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 1 }, { conversation_id: conversationIdOf(2), up_to: 8 }]), { timeout: 5_000 });
  });

  /**
   * The conversation with 2 moved from seq 1 to 1201: 3 pages of 400 (seqs 2…1201, the second
   * page repeating one of the first). Pages after the first are answered once `later` resolves.
   */
  function longCatchUp(later: Promise<unknown> = Promise.resolve()) {
    const missed = Array.from({ length: 1200 }, (_, i) => conversationMessage(i + 2));
    const pages = [missed.slice(0, 400), [missed[399]!, ...missed.slice(400, 800)], missed.slice(800)];
    socket.ackResponder = async (event) => {
      if (event === 'sync_account') return moved(missed.at(-1)!, 0);
      if (event === 'sync_conversation') {
        if (pages.length < 3) await later;
        const page = pages.shift() ?? [];
        const hasMore = pages.length > 0;
        return { data: { conversation_id: conversationIdOf(2), messages: page, changes: [], through: hasMore ? page.at(-1)!.seq : 1201, last_seq: 1201, has_more: hasMore, seen: [] } };
      }
      return event === 'read' ? { data: { count: 0, unread_count: 0 } } : { data: null };
    };
    return { missed, pagesLeft: () => pages.length };
  }

  it('a long catch-up merges each page in one update of each store, keeping order and dropping duplicates', async () => {
    await start();
    openConversation(2);
    useViewStore.getState().setSeesLatest(false); // scrolled up in it: the user keeps their place
    await settle();
    longCatchUp();
    const threadUpdates = vi.fn();
    const listUpdates = vi.fn();
    const counterUpdates = vi.fn();
    const stops = [useThreadStore.subscribe(threadUpdates), useConversationsStore.subscribe(listUpdates), useCounterStore.subscribe(counterUpdates)];
    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]?.messages).toHaveLength(1201));
    await settle();
    for (const stop of stops) stop();
    expect(useThreadStore.getState().threads[2]!.messages.map((m) => m.id)).toEqual(Array.from({ length: 1201 }, (_, i) => i + 1));
    expect(threadUpdates).toHaveBeenCalledTimes(3);
    // The account's rows once, then one per page for the row's last message.
    expect(listUpdates.mock.calls.length).toBeLessThanOrEqual(1 + 3);
    // Synced messages never count as unread (docs/DELIVERY.md).
    expect(useCounterStore.getState().unread).toBe(0);
    expect(counterUpdates).not.toHaveBeenCalled();
    expect(api.listMessages).toHaveBeenCalledTimes(1); // the thread's first load only
  });

  it('far behind while following the open conversation, it shows the newest page at once, and the rest is left to scrolling up', async () => {
    await start();
    openAndSee(2);
    await settle();
    const { missed, pagesLeft } = longCatchUp(new Promise(() => undefined));
    const newest = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    const viewBefore = useThreadStore.getState().threads[2]!.view;
    socket.transportDrops();
    socket.managerReconnects(1);
    // The first page said more was missing: the thread asks for its newest page instead of the rest.
    await vi.waitFor(() => expect(api.listMessages).toHaveBeenCalledTimes(2));
    expect(pagesLeft()).toBe(2);
    newest.resolve(threadPage(missed.slice(-50).reverse(), { next_cursor: 'older-than-1152', last_seq: 1201 }));
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]!.view).toBe(viewBefore + 1));
    await settle();
    const thread = useThreadStore.getState().threads[2]!;
    // The newest 50, without a hole: the missed messages before them come by scrolling up.
    expect(thread.messages.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 1152 + i));
    expect(thread).toMatchObject({ nextCursor: 'older-than-1152', focus: { id: 'latest' }, streamSeq: 1201 });
    expect(pagesLeft()).toBe(2);
  });

  it('far behind in a thread not on screen, it lets the thread go: it loads afresh when opened', async () => {
    await start();
    await useThreadStore.getState().loadThread(2);
    longCatchUp(new Promise(() => undefined));
    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]).toBeUndefined());
    expect(useConversationsStore.getState().conversations[0]?.last_message.id).toBe(1201);
  });

  it('after a reconnect the open conversation’s person is read again (who may message them may have changed meanwhile)', async () => {
    await start();
    openAndSee(2);
    await settle();
    const profile = vi.mocked(getProfile);
    profile.mockClear();
    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(profile).toHaveBeenCalledWith(2));
  });

  it('starting twice for the same user subscribes once', async () => {
    await start();
    startMessagingSession(ME);
    socket.serverEmits('message', conversationMessage(5, { sender_id: 3 }));
    expect(unreadFrom(3)).toBe(1);
    expect(useCounterStore.getState().unread).toBe(1);
  });

  it('sign-out stops it: the stores forget the user and events are no longer handled', async () => {
    await start();
    openAndSee(2);
    signOut();
    // No session any more: the composer's send has no outbox to go through.
    await expect(sendMessage(2, 'hello')).resolves.toMatchObject({ status: 'failed', error: 'Not signed in.' });
    expect(useConversationsStore.getState().conversations).toEqual([]);
    expect(useThreadStore.getState().threads).toEqual({});
    // Sign-out removes only the token (the receiver value stays); the next session starts with none.
    expect(useSessionStore.getState().receiver).toBe(2);
    startMessagingSession(ME, { storage: createMemoryOutboxStorage() });
    expect(useSessionStore.getState().receiver).toBeNull();
    stopMessagingSession();
    socket.serverEmits('account_item', { seq: 1, conversation_id: conversationIdOf(2), kind: 'read', read_seq: 1, unread_count: 0 });
    socket.serverEmits('message', conversationMessage(5));
    expect(useConversationsStore.getState().conversations).toEqual([]);
  });
});
