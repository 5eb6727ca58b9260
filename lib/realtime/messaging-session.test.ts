// The messaging session's life: what it does once started (the list read, the connection's
// status), catching up by seq after a reconnect, and its end (starting again, signing out).
import { describe, expect, it, vi } from 'vitest';
import type { ConversationPage, MessagePayload, Page } from '@/lib/contract';
import { signOut } from '@/lib/session/sign-out';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { deferred, settle } from '@/lib/testing/deferred';
import { conversation, ME, message, user } from '@/lib/testing/fixtures';
import { sendMessage, startMessagingSession, stopMessagingSession } from './messaging-session';
import { useViewStore } from '@/lib/stores/view-store';
import { FIRST_PAGE_LIMIT } from './catch-up';
import { openConversation } from '../routing/conversation-route';
import { openAndSee, reads, setUpMessagingSession, socket, start, unreadFrom } from '@/lib/testing/session-harness';

const api = vi.hoisted(() => ({
  listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationPage>>(),
  listMessages: vi.fn<(userId: number, cursor?: string | null) => Promise<Page<MessagePayload>>>(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async () => ({ ...user(3), followers_count: 0, following_count: 0 })) }));
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

  it('after a reconnect it syncs from its cursor: missed messages reach the open thread, the list is read again', async () => {
    await start();
    openAndSee(2);
    await settle();
    const syncs: unknown[] = [];
    const missed = message(8, { seq: 2 });
    socket.ackResponder = async (event, payload) => {
      if (event === 'sync') {
        syncs.push(payload);
        return { data: { messages: [missed], changes: [], through: 2, last_seq: 2, has_more: false } };
      }
      return event === 'read' ? { data: { count: 0, unread_count: 0 } } : { data: null };
    };
    api.listConversations.mockResolvedValue({ results: [conversation(2, missed, 1)], next_cursor: null, last_seq: 2, account_cursor: '0.0.0' });
    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]?.messages.map((m) => m.id)).toContain(8));
    expect(syncs).toEqual([{ after: 1, limit: FIRST_PAGE_LIMIT }]);
    await vi.waitFor(() => expect(useConversationsStore.getState().conversations[0]?.last_message.id).toBe(8));
    // The open conversation had an unread message again: read, once the last read is a moment old.
    await vi.waitFor(() => expect(reads()).toEqual([{ user_id: 2, up_to: 1 }, { user_id: 2, up_to: 8 }]), { timeout: 5_000 });
  });

  /**
   * 3 pages of 400 from the cursor (1): seqs 2…1201, the second page repeating one of the first.
   * Pages after the first are answered once `later` resolves.
   */
  function longCatchUp(later: Promise<unknown> = Promise.resolve()) {
    const missed = Array.from({ length: 1200 }, (_, i) => message(i + 2, { seq: i + 2, minute: 0 }));
    const pages = [missed.slice(0, 400), [missed[399]!, ...missed.slice(400, 800)], missed.slice(800)];
    socket.ackResponder = async (event) => {
      if (event === 'sync') {
        if (pages.length < 3) await later;
        const page = pages.shift() ?? [];
        const hasMore = pages.length > 0;
        return { data: { messages: page, changes: [], through: hasMore ? page.at(-1)!.seq : 1201, last_seq: 1201, has_more: hasMore } };
      }
      return event === 'read' ? { data: { count: 0, unread_count: 0 } } : { data: null };
    };
    api.listConversations.mockResolvedValue({ results: [conversation(2, missed.at(-1)!, 0)], next_cursor: null, last_seq: 1201, account_cursor: '0.0.0' });
    return { missed, pagesLeft: () => pages.length };
  }

  it('a long catch-up merges each sync page in one update of each store, keeping order and dropping duplicates', async () => {
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
    // One per page for the rows' last messages, and the list read again twice (far behind at the
    // first page, then after the catch-up), each loading then loaded.
    expect(listUpdates.mock.calls.length).toBeLessThanOrEqual(3 + 2 * 2);
    // Synced messages never count as unread (docs/DELIVERY.md).
    expect(useCounterStore.getState().unread).toBe(0);
    expect(counterUpdates).not.toHaveBeenCalled();
    expect(api.listMessages).toHaveBeenCalledTimes(1); // the thread's first load only
  });

  it('far behind while following the open conversation, it shows the newest page at once; older missed messages come by scrolling up', async () => {
    await start();
    openAndSee(2);
    await settle();
    const restarted = deferred<void>();
    const { missed, pagesLeft } = longCatchUp(restarted.promise);
    const newest = deferred<Page<MessagePayload>>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    const viewBefore = useThreadStore.getState().threads[2]!.view;
    const listReadsBefore = api.listConversations.mock.calls.length;
    socket.transportDrops();
    socket.managerReconnects(1);
    // The first sync page said more was missing: the thread asks for its newest page, and the
    // list is read again at once, not after the whole catch-up.
    await vi.waitFor(() => expect(api.listMessages).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(api.listConversations.mock.calls.length).toBe(listReadsBefore + 1));
    expect(pagesLeft()).toBe(2);
    newest.resolve({ results: missed.slice(-50).reverse(), next_cursor: 'older-than-1152' });
    await vi.waitFor(() => expect(useThreadStore.getState().threads[2]!.view).toBe(viewBefore + 1));
    // The rest of the catch-up arrives after the thread restarted.
    restarted.resolve();
    await vi.waitFor(() => expect(pagesLeft()).toBe(0));
    await settle();
    const thread = useThreadStore.getState().threads[2]!;
    // The newest 50, without a hole: the pages of older missed messages were not put before them.
    expect(thread.messages.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 1152 + i));
    expect(thread).toMatchObject({ nextCursor: 'older-than-1152', focus: { id: 'latest' } });
  });

  it('starting twice for the same user subscribes once', async () => {
    await start();
    startMessagingSession(ME);
    socket.serverEmits('message', message(5, { sender_id: 3 }));
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
    socket.serverEmits('conversation_read', { user_id: 2 });
    socket.serverEmits('message', message(5));
    expect(useConversationsStore.getState().conversations).toEqual([]);
  });
});
