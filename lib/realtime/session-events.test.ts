// The socket's events in the messaging session (lib/realtime/session-events.ts), the table of
// docs/CLIENT-RULES.md, and the reads that follow what the user opens and sees.
import { describe, expect, it, vi } from 'vitest';
import type { ConversationSummaryPage, ConversationThreadPage } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { useHidingStore } from '@/lib/stores/hiding-store';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { settle } from '@/lib/testing/deferred';
import { account, conversationIdOf, conversationMessage, ME, summary, threadPage, user } from '@/lib/testing/fixtures';
import { useViewStore } from '@/lib/stores/view-store';
import { openConversation } from '@/lib/routing/conversation-route';
import { onFollowed } from './messaging-session';
import { getProfile } from '@/lib/api/users';
import { openAndSee, reads, setUpMessagingSession, setVisibility, socket, start, unreadFrom } from '@/lib/testing/session-harness';

const api = vi.hoisted(() => ({
  listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationSummaryPage>>(),
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async () => ({ ...user(3), followers_count: 0, following_count: 0, conversation_id: null })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

describe('messaging session: socket events and reads', () => {
  setUpMessagingSession();

  it('message_count sets the unread total, whatever it was', async () => {
    await start();
    useCounterStore.getState().setUnread(9);
    socket.serverEmits('message_count', { count: 4 });
    expect(useCounterStore.getState().unread).toBe(4);
    socket.serverEmits('message_count', { count: 0 });
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('each message adds one to the unread total', async () => {
    await start();
    socket.serverEmits('message_count', { count: 2 });
    socket.serverEmits('message', conversationMessage(5, { sender_id: 3 }));
    socket.serverEmits('message', conversationMessage(6, { sender_id: 3 }));
    expect(useCounterStore.getState().unread).toBe(4);
  });

  it('a message from someone not open: +1 badge, row on top, no read', async () => {
    await start([summary(2, conversationMessage(1)), summary(3, conversationMessage(2, { sender_id: 3 }))]);
    socket.serverEmits('message', conversationMessage(5));
    expect(useCounterStore.getState().unread).toBe(1);
    expect(unreadFrom(2)).toBe(1);
    expect(useConversationsStore.getState().conversations[0]?.user.id).toBe(2);
    expect(reads()).toEqual([]);
  });

  it('opening a conversation with unread messages sets the receiver and emits read', async () => {
    await start();
    openAndSee(2);
    await settle();
    expect(useSessionStore.getState().receiver).toBe(2);
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 1 }]);
    expect(unreadFrom(2)).toBe(0);
    expect(useThreadStore.getState().threads[2]?.status).toBe('ready');
  });

  it('opening a conversation puts it in the URL, and reads nothing until its newest message is on screen', async () => {
    await start();
    openConversation(2);
    await settle();
    expect(window.location.pathname).toBe('/main/2');
    expect(useSessionStore.getState().receiver).toBe(2);
    expect(reads()).toEqual([]);
    expect(unreadFrom(2)).toBe(2);
    useViewStore.getState().setSeesLatest(true);
    await settle();
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 1 }]);
    expect(unreadFrom(2)).toBe(0);
  });

  it('reads only as far as the user has seen: the badge and the thread follow the server’s answer', async () => {
    api.listMessages.mockResolvedValue(threadPage([5, 4, 3, 2, 1].map((id) => conversationMessage(id))));
    await start([summary(2, conversationMessage(5), 5)]);
    openConversation(2);
    await settle();
    expect(reads()).toEqual([]);
    socket.ackResponder = async () => ({ data: { count: 2, unread_count: 2 } });
    useViewStore.getState().noteSeen(2, 3);
    await settle();
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 3 }]);
    expect(unreadFrom(2)).toBe(2);
    expect(useThreadStore.getState().threads[2]?.messages.map((m) => [m.id, m.read_at === null])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
      [5, true],
    ]);
    // Seen already: nothing more to read.
    useViewStore.getState().noteSeen(2, 2);
    await settle();
    expect(reads()).toHaveLength(1);
  });

  it('scrolled up in the open conversation: a new message stays unread (badge +1, no read) until scrolled down', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    openAndSee(2);
    await settle();
    useViewStore.getState().setSeesLatest(false);
    socket.serverEmits('message', conversationMessage(6));
    expect(reads()).toEqual([]);
    expect(unreadFrom(2)).toBe(1);
    expect(useThreadStore.getState().threads[2]?.messages.at(-1)).toMatchObject({ id: 6, read_at: null });
    useViewStore.getState().setSeesLatest(true);
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 6 }]);
    await settle();
    expect(unreadFrom(2)).toBe(0);
    // Read here: the thread's copy says so too (the "new messages" line counts from it).
    expect(useThreadStore.getState().threads[2]?.messages.at(-1)?.read_at).not.toBeNull();
  });

  it('opening one without unread messages emits nothing', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    openAndSee(2);
    openAndSee(4);
    expect(reads()).toEqual([]);
  });

  it('the unread total is only ever set by message_count, not by reading', async () => {
    await start();
    useCounterStore.getState().setUnread(2);
    openAndSee(2);
    await settle();
    expect(useCounterStore.getState().unread).toBe(2);
    socket.serverEmits('message_count', { count: 0 });
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('a refused read leaves the badge as it was', async () => {
    await start();
    socket.ackResponder = async () => ({ error: { msg: 'Not allowed.' } });
    openAndSee(2);
    await settle();
    expect(reads()).toHaveLength(1);
    expect(unreadFrom(2)).toBe(2);
  });

  it('a message in the open conversation, tab visible: read at once, badge unchanged, thread updated', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    openAndSee(2);
    await settle();
    const badges: number[] = [];
    const stopWatching = useConversationsStore.subscribe(() => badges.push(unreadFrom(2)));
    socket.serverEmits('message', conversationMessage(6));
    stopWatching();
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 6 }]);
    expect(badges.length).toBeGreaterThan(0);
    expect(badges.every((badge) => badge === 0)).toBe(true);
    expect(useThreadStore.getState().threads[2]?.messages.map((m) => m.id)).toEqual([1, 6]);
  });

  it('a refused read of a message read on arrival leaves it unread on its badge', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    openAndSee(2);
    socket.ackResponder = async () => ({ error: { msg: 'Not connected.' } });
    socket.serverEmits('message', conversationMessage(6));
    await settle();
    expect(unreadFrom(2)).toBe(1);
  });

  it('tab hidden: the message stays unread until the tab is visible again', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    openAndSee(2);
    setVisibility('hidden');
    socket.serverEmits('message', conversationMessage(6));
    expect(reads()).toEqual([]);
    expect(unreadFrom(2)).toBe(1);
    setVisibility('visible');
    expect(reads()).toEqual([{ conversation_id: conversationIdOf(2), up_to: 6 }]);
    await settle();
    expect(unreadFrom(2)).toBe(0);
  });

  it('message_sent from another device: row moves up, thread gets it, nothing unread', async () => {
    await start([summary(3, conversationMessage(2, { sender_id: 3 })), summary(2, conversationMessage(1))]);
    await useThreadStore.getState().loadThread(2);
    socket.serverEmits('message_sent', conversationMessage(9, { sender_id: ME, peer: 2 }));
    expect(useConversationsStore.getState().conversations[0]).toMatchObject({ user: { id: 2 }, unread_count: 0 });
    expect(useThreadStore.getState().threads[2]?.messages.map((m) => m.id)).toEqual([1, 9]);
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('a read on another device (its account item) sets that badge to what is left unread, once', async () => {
    await start();
    const read = (seq: number, readSeq: number, unread: number) => ({ seq, conversation_id: conversationIdOf(2), kind: 'read' as const, read_seq: readSeq, unread_count: unread });
    socket.serverEmits('account_item', read(1, 1, 1));
    expect(unreadFrom(2)).toBe(1);
    socket.serverEmits('account_item', read(2, 2, 0));
    expect(unreadFrom(2)).toBe(0);
    // The same item again (an echo, or a catch-up overlapping the live one) changes nothing.
    socket.serverEmits('account_item', read(1, 1, 1));
    expect(unreadFrom(2)).toBe(0);
  });

  it('a deletion for oneself from another device is remembered for the session, even in a conversation not shown yet', async () => {
    await start();
    const hide = (seq: number, conversationId: number, messageId: number) => ({ seq, conversation_id: conversationId, kind: 'hide' as const, message_id: messageId, preview: null });
    socket.serverEmits('account_item', hide(1, conversationIdOf(2), 5));
    socket.serverEmits('account_item', hide(2, 999_999, 7));
    expect([...useHidingStore.getState().done]).toEqual([5, 7]);
  });

  it('the other person’s receipt marks the user’s messages seen up to its seq; their messages are not', async () => {
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(3, { sender_id: ME }), conversationMessage(2), conversationMessage(1, { sender_id: ME })]));
    await start();
    await useThreadStore.getState().loadThread(2);
    socket.serverEmits('seen', { conversation_id: conversationIdOf(2), user_id: 2, seq: 2, read_at: '2025-01-01T13:00:00.000Z' });
    expect(useThreadStore.getState().threads[2]?.messages.map((m) => [m.id, m.read_at])).toEqual([
      [1, '2025-01-01T13:00:00.000Z'],
      [2, null],
      [3, null],
    ]);
  });

  it('a change to a message reaches its thread and row by its conversation; an unknown conversation’s is dropped', async () => {
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(1)]));
    await start();
    await useThreadStore.getState().loadThread(2);
    const edit = { conversation_id: conversationIdOf(2), seq: 2, message_id: 1, actor_id: 2, kind: 'edit' as const, text: 'edited', edited_at: '2025-01-01T13:00:00.000Z' };
    socket.serverEmits('message_change', edit);
    expect(useThreadStore.getState().threads[2]?.messages[0]).toMatchObject({ text: 'edited', version: 2 });
    expect(useConversationsStore.getState().conversations[0]?.last_message).toMatchObject({ text: 'edited' });
    socket.serverEmits('message_change', { ...edit, conversation_id: conversationIdOf(9), seq: 3, text: 'elsewhere' });
    expect(useThreadStore.getState().threads[2]?.messages[0]?.text).toBe('edited');
  });

  it('the other person unsending a message asks the account what moved (the row comes with the server\'s count); one\'s own unsending does not', async () => {
    await start([summary(2, conversationMessage(1, { sender_id: 2 }))]);
    await settle();
    const asked = () => socket.sentEvents('sync_account').length;
    const before = asked();
    const unsend = { conversation_id: conversationIdOf(2), seq: 2, message_id: 1, actor_id: 2, kind: 'unsend' as const };
    socket.serverEmits('message_change', unsend);
    await vi.waitFor(() => expect(asked()).toBe(before + 1));
    socket.serverEmits('message_change', { ...unsend, seq: 3, message_id: 4, actor_id: ME });
    await settle();
    expect(asked()).toBe(before + 1);
  });

  it('a first message from someone new names their conversation: a thread open for them holds it from then on', async () => {
    await start([]);
    vi.mocked(getProfile).mockResolvedValueOnce({ ...user(3), followers_count: 0, following_count: 0, blocked: false, can_message: true, conversation_id: null });
    await useThreadStore.getState().loadThread(3);
    expect(useThreadStore.getState().threads[3]).toMatchObject({ status: 'ready', conversationId: null });
    socket.serverEmits('message', conversationMessage(1, { sender_id: 3 }));
    expect(useThreadStore.getState().threads[3]).toMatchObject({ conversationId: conversationIdOf(3), streamSeq: 0 });
    expect(useThreadStore.getState().threads[3]?.messages.map((m) => m.id)).toEqual([1]);
    expect(useConversationsStore.getState().conversations.map((row) => row.user.id)).toEqual([3]);
  });

  it('user_updated shows the new name and photo everywhere the person is: their row, profile and search result, or the header', async () => {
    await start([summary(2, conversationMessage(1)), summary(3, conversationMessage(2, { sender_id: 3 }))]);
    useSessionStore.getState().publishUser(account({ username: 'Me', email: 'me@example.com' }));
    usePeopleStore.setState({ searchResults: [{ ...user(2), can_message: true }, { ...user(4), can_message: true }], profiles: { 2: { ...user(2), followers_count: 1, following_count: 0, blocked: false, can_message: true, conversation_id: null } } });
    socket.serverEmits('user_updated', { id: 2, username: 'Ada', avatar: '/api/uploads/abc/avatar.webp' });
    const changed = { username: 'Ada', avatar: '/api/uploads/abc/avatar.webp' };
    expect(useConversationsStore.getState().conversations.map((row) => row.user)).toEqual([user(3), { ...user(2), ...changed }]);
    expect(usePeopleStore.getState().profiles[2]).toMatchObject({ ...changed, followers_count: 1 });
    expect(usePeopleStore.getState().searchResults).toEqual([{ ...user(2), can_message: true, ...changed }, { ...user(4), can_message: true }]);
    socket.serverEmits('user_updated', { id: ME, username: 'Me, renamed', avatar: null });
    expect(useSessionStore.getState().user).toMatchObject({ id: ME, username: 'Me, renamed', email: 'me@example.com' });
  });

  it('user_updated: a deleted account shows as deleted on its row and profile, and the open conversation’s person is read again', async () => {
    await start([summary(2, conversationMessage(1)), summary(3, conversationMessage(2, { sender_id: 3 }))]);
    usePeopleStore.setState({ profiles: { 2: { ...user(2), followers_count: 1, following_count: 0, blocked: false, can_message: true, conversation_id: null } } });
    socket.serverEmits('user_updated', { id: 2, username: null, avatar: null, deleted: true });
    expect(useConversationsStore.getState().conversations.find((row) => row.user.id === 2)?.user).toMatchObject({ username: null, deleted: true });
    expect(usePeopleStore.getState().profiles[2]).toMatchObject({ deleted: true, can_message: false });

    openConversation(3);
    await settle();
    const profile = vi.mocked(getProfile);
    profile.mockClear();
    socket.serverEmits('user_updated', { id: 3, username: 'user3', avatar: null });
    expect(profile).toHaveBeenCalledExactlyOnceWith(3);
  });

  it('followed notifies subscribers with false, whatever the payload, until they unsubscribe', async () => {
    await start();
    const listener = vi.fn();
    const unsubscribe = onFollowed(listener);
    const payload = { follower_id: ME, followee_id: 3, following: true, followers_count: 1 };
    socket.serverEmits('followed', payload);
    expect(listener).toHaveBeenCalledExactlyOnceWith(false);
    unsubscribe();
    socket.serverEmits('followed', { ...payload, following: false });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('followed and follower update the follow state', async () => {
    await start();
    usePeopleStore.getState().rememberUsers([user(3)]);
    socket.serverEmits('followed', { follower_id: ME, followee_id: 3, following: true, followers_count: 1 });
    socket.serverEmits('follower', { follower_id: 4, followee_id: ME, following: true, followers_count: 1 });
    expect(usePeopleStore.getState().follows[3]?.following).toBe(true);
    expect(usePeopleStore.getState().followsYou[4]).toBe(true);
  });
});
