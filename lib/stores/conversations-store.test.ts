import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationSummary, ConversationSummaryPage, Profile } from '@/lib/contract';
import { deferred, settle } from '@/lib/testing/deferred';
import { account, conversation, conversationIdOf, conversationMessage, ME, message, summary, user } from '@/lib/testing/fixtures';
import { dropUnlisted, mergeConversations } from './conversation-list';
import { useDirectConversations } from './direct-conversations';
import { useHidingStore } from './hiding-store';
import { useSessionStore } from './session-store';
import { selectUnreadFor, useConversationsStore } from './conversations-store';

const api = vi.hoisted(() => ({
  listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationSummaryPage>>(),
  getProfile: vi.fn<(id: number) => Promise<Profile>>(),
}));
vi.mock('@/lib/api/conversations', () => ({ listConversations: api.listConversations }));
vi.mock('@/lib/api/users', () => ({ getProfile: api.getProfile }));

const store = () => useConversationsStore.getState();
const peers = () => store().conversations.map((row) => row.user.id);
/** The account cursor the pages are read at. */
const LIST_CURSOR = '0.1.0.0';
const page = (results: ConversationSummary[], next_cursor: string | null = null): ConversationSummaryPage => ({ results, next_cursor, account_cursor: LIST_CURSOR });

describe('conversation list merging', () => {
  it('orders by last message time, newest first, one row per person', () => {
    const merged = mergeConversations(
      [conversation(2, message(1, { minute: 5 })), conversation(3, message(2, { minute: 1 }))],
      [conversation(4, message(3, { minute: 3, sender_id: 4 })), conversation(3, message(4, { minute: 9, sender_id: 3 }))],
    );
    expect(merged.map((row) => row.user.id)).toEqual([3, 2, 4]);
  });

  it('keeps a live row newer than the page, with its badge, but takes the page user', () => {
    const live = conversation(2, message(9), 3);
    const stale = { ...conversation(2, message(4), 1), user: user(2, { username: 'bob' }) };
    const [row] = mergeConversations([live], [stale]);
    expect(row).toEqual({ ...live, user: stale.user });
  });

  it('keeps its copy of the same last message when it changed since the page was read (an edit heard live), with the page’s badge', () => {
    const edited = conversation(2, message(9, { text: 'edited', version: 12 }), 3);
    const read = conversation(2, message(9, { version: 9 }), 1);
    expect(mergeConversations([edited], [read])).toEqual([{ ...read, last_message: edited.last_message }]);
    // An older copy of ours gives way to the page's.
    expect(mergeConversations([read], [edited])).toEqual([edited]);
  });
});

describe('reading the first page again', () => {
  const ids = (list: Conversation[]) => list.map((row) => row.user.id);

  it('drops rows the server no longer lists within the page’s range (blocked elsewhere), keeps newer and older ones', () => {
    const local = [conversation(9, message(50)), conversation(2, message(40)), conversation(3, message(30)), conversation(4, message(10))];
    const page = [conversation(2, message(40)), conversation(5, message(20))];
    // 9: newer than the page (arrived live after the read); 3: inside the range and gone; 4: on a later page.
    expect(ids(dropUnlisted(local, page, false))).toEqual([9, 2, 4]);
    // When the page is the whole list, nothing older can lie elsewhere.
    expect(ids(dropUnlisted(local, page, true))).toEqual([9, 2]);
  });

  it('keeps everything when the page is empty: it gives no range, and a local row may have arrived after the read', () => {
    const local = [conversation(2, message(4))];
    expect(dropUnlisted(local, [], false)).toBe(local);
    expect(dropUnlisted(local, [], true)).toBe(local);
  });
});

describe('synced messages on the list', () => {
  beforeEach(() => {
    useConversationsStore.getState().reset();
    api.getProfile.mockReset();
    api.getProfile.mockResolvedValue({ ...user(5), followers_count: 0, following_count: 0, blocked: false, can_message: true, conversation_id: null });
  });

  it('each peer\'s newest message becomes its last one in one update; badges stay; new peers are filled in', async () => {
    useConversationsStore.setState({
      conversations: [conversation(2, message(4, { minute: 4 }), 3), conversation(3, message(6, { minute: 6, sender_id: 3 }), 1)],
    });
    const updates = vi.fn();
    const unsubscribe = useConversationsStore.subscribe(updates);
    store().recordSynced([
      { peerId: 2, message: message(8, { minute: 8 }) },
      { peerId: 2, message: message(7, { minute: 7 }) },
      { peerId: 3, message: message(5, { minute: 5, sender_id: 3 }) },
      { peerId: 5, message: message(9, { minute: 9, sender_id: 5 }) },
    ]);
    unsubscribe();
    expect(updates).toHaveBeenCalledTimes(1);
    expect(peers()).toEqual([5, 2, 3]);
    expect(store().conversations.map((row) => [row.last_message.id, row.unread_count])).toEqual([
      [9, 0],
      [8, 3],
      [6, 1],
    ]);
    await settle();
    expect(api.getProfile).toHaveBeenCalledWith(5);
    expect(api.getProfile).toHaveBeenCalledTimes(1);
  });

  it('nothing newer: no update', () => {
    useConversationsStore.setState({ conversations: [conversation(2, message(4), 0)] });
    const before = store().conversations;
    store().recordSynced([{ peerId: 2, message: message(4) }, { peerId: 2, message: message(3) }]);
    expect(store().conversations).toBe(before);
  });
});

describe('conversations store', () => {
  beforeEach(() => {
    useConversationsStore.getState().reset();
    api.listConversations.mockReset();
    api.getProfile.mockReset();
  });

  it('loads the first page and then older pages by cursor', async () => {
    api.listConversations
      .mockResolvedValueOnce(page([summary(2, conversationMessage(5)), summary(3, conversationMessage(4, { sender_id: 3 }))], 'c1'))
      .mockResolvedValueOnce(page([summary(4, conversationMessage(1, { sender_id: 4 }))], null));
    await store().loadConversations();
    expect(store()).toMatchObject({ status: 'ready', nextCursor: 'c1', accountCursor: LIST_CURSOR });
    await store().loadMoreConversations();
    expect(api.listConversations).toHaveBeenLastCalledWith('c1');
    expect(peers()).toEqual([2, 3, 4]);
    expect(store()).toMatchObject({ nextCursor: null, loadingMore: false });
    await store().loadMoreConversations();
    expect(api.listConversations).toHaveBeenCalledTimes(2);
  });

  it('holds each row by the other person, its last message as the thread shows it, and learns whose conversation it is', async () => {
    useSessionStore.getState().publishUser(account());
    api.listConversations.mockResolvedValue(page([summary(2, conversationMessage(5, { sender_id: ME, peer: 2 })), summary(3, conversationMessage(4, { sender_id: 3 }), 0, true, { read_seq: 4 })]));
    await store().loadConversations();
    // Read by the user up to the row's read position (the receipt for their own comes with the thread's pages).
    expect(store().conversations).toEqual([
      { user: user(2), last_message: message(5, { sender_id: ME, recipient_id: 2 }), unread_count: 0, muted: false },
      { user: user(3), last_message: message(4, { sender_id: 3, read_at: message(4).created_at }), unread_count: 0, muted: true },
    ]);
    expect(useDirectConversations.getState().byPeer).toEqual({ 2: conversationIdOf(2), 3: conversationIdOf(3) });
  });

  it('rows the account’s catch-up reports take the server’s last message and badge; a removed conversation, or one with nothing left to show, leaves the list', async () => {
    api.listConversations.mockResolvedValue(page([summary(2, conversationMessage(5), 1), summary(3, conversationMessage(4, { sender_id: 3 })), summary(4, conversationMessage(3, { sender_id: 4 }))]));
    await store().loadConversations();
    store().applySummaries([summary(3, conversationMessage(9, { sender_id: 3 }), 2), summary(4, conversationMessage(3, { sender_id: 4 }), 0, false, { last_message: null })], [conversationIdOf(2)]);
    expect(store().conversations.map((row) => [row.user.id, row.last_message.id, row.unread_count])).toEqual([[3, 9, 2]]);
  });

  it('a row the account’s catch-up reports shows the person as the server does now (a name or photo changed while this tab was away)', async () => {
    api.listConversations.mockResolvedValue(page([summary(3, conversationMessage(4, { sender_id: 3 }))]));
    await store().loadConversations();
    const renamed = user(3, { username: 'Cy Renamed', avatar: null });
    store().applySummaries([summary(3, conversationMessage(4, { sender_id: 3 }), 0, false, { user: renamed })], []);
    expect(store().conversations.map((row) => row.user)).toEqual([renamed]);
  });

  it('a row read before a deletion for oneself heard since keeps what it shows now', async () => {
    api.listConversations.mockResolvedValue(page([summary(2, conversationMessage(5, { sender_id: 2 }), 1)]));
    await store().loadConversations();
    // Deleted on another device: the account's item (as applyAccountItem applies it) shows the one before.
    useHidingStore.getState().hidden(5);
    store().applyChanges([{ kind: 'hide', peer_id: 2, message_id: 5, preview: message(4, { sender_id: 2 }), unread_count: 0 }], true);
    // A catch-up page read before the deletion, answered after it.
    store().applySummaries([summary(2, conversationMessage(5, { sender_id: 2 }), 1)], []);
    expect(store().conversations.map((row) => [row.user.id, row.last_message.id, row.unread_count])).toEqual([[2, 4, 0]]);
  });

  it('a failed first load reports its message', async () => {
    api.listConversations.mockRejectedValue(new TypeError('Failed to fetch'));
    await store().loadConversations();
    expect(store()).toMatchObject({ status: 'error', error: 'Can’t reach Parley. Check your connection.' });
  });

  it('concurrent first-page loads share one request', async () => {
    api.listConversations.mockResolvedValue(page([]));
    await Promise.all([store().loadConversations(), store().loadConversations()]);
    expect(api.listConversations).toHaveBeenCalledOnce();
  });

  it('a refresh keeps the cursor that already reaches further back', async () => {
    api.listConversations
      .mockResolvedValueOnce(page([summary(2, conversationMessage(5))], 'c1'))
      .mockResolvedValueOnce(page([summary(3, conversationMessage(1, { sender_id: 3 }))], 'c2'))
      .mockResolvedValueOnce(page([summary(2, conversationMessage(6))], 'c1'));
    await store().loadConversations();
    await store().loadMoreConversations();
    await store().loadConversations();
    expect(store().nextCursor).toBe('c2');
    expect(store().conversations[0]?.last_message.id).toBe(6);
  });

  it('an incoming message moves its row to the top and adds to its badge', async () => {
    api.listConversations.mockResolvedValue(page([summary(2, conversationMessage(5)), summary(3, conversationMessage(4, { sender_id: 3 }))]));
    await store().loadConversations();
    store().receiveIncoming(message(10, { sender_id: 3 }), { countUnread: true });
    store().receiveIncoming(message(10, { sender_id: 3 }), { countUnread: true });
    expect(peers()).toEqual([3, 2]);
    expect(selectUnreadFor(store(), 3)).toBe(1);
    store().receiveIncoming(message(11, { sender_id: 3 }), { countUnread: false });
    expect(selectUnreadFor(store(), 3)).toBe(1);
    expect(store().conversations[0]?.last_message.id).toBe(11);
  });

  it('the user’s own messages move the row up without unread', () => {
    store().receiveIncoming(message(1, { sender_id: 2 }), { countUnread: true });
    store().receiveIncoming(message(2, { sender_id: 3 }), { countUnread: true });
    store().recordOutgoing(message(3, { sender_id: ME, recipient_id: 2 }));
    expect(peers()).toEqual([2, 3]);
    expect(selectUnreadFor(store(), 2)).toBe(1);
  });

  it('a late ack does not replace a newer last message', () => {
    store().receiveIncoming(message(9, { sender_id: 2 }), { countUnread: true });
    store().recordOutgoing(message(8, { sender_id: ME, recipient_id: 2 }));
    expect(store().conversations[0]?.last_message.id).toBe(9);
  });

  it('someone new shows by id at once and by profile once it arrives', async () => {
    api.getProfile.mockResolvedValue({ ...user(4, { username: 'dee' }), followers_count: 0, following_count: 0, blocked: false, can_message: true, conversation_id: null });
    store().receiveIncoming(message(1, { sender_id: 4 }), { countUnread: true });
    expect(store().conversations[0]?.user).toMatchObject({ id: 4, username: null });
    await settle();
    expect(store().conversations[0]?.user).toEqual(user(4, { username: 'dee' }));
    expect(api.getProfile).toHaveBeenCalledExactlyOnceWith(4);
  });

  it('setUnreadCount shows the badge the server counted after a read, part of the conversation or all', () => {
    store().receiveIncoming(message(1), { countUnread: true });
    store().receiveIncoming(message(2), { countUnread: true });
    store().receiveIncoming(message(3), { countUnread: true });
    store().setUnreadCount(2, 1);
    expect(selectUnreadFor(store(), 2)).toBe(1);
    store().setUnreadCount(2, 0);
    expect(selectUnreadFor(store(), 2)).toBe(0);
  });

  it('drops answers that arrive after a reset (sign-out)', async () => {
    const late = deferred<ConversationSummaryPage>();
    api.listConversations.mockReturnValueOnce(late.promise);
    const loading = store().loadConversations();
    useConversationsStore.getState().reset();
    late.resolve(page([summary(2, conversationMessage(1))]));
    await loading;
    expect(store()).toMatchObject({ conversations: [], status: 'idle' });
  });
});
