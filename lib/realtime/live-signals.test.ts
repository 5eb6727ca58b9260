// Typing and presence in the messaging session: socket events into their stores, what the session
// sends (typing signals, presence subscriptions), and that none of it touches an unread count.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary, ConversationSummaryPage, ConversationThreadPage, PresencePayload, SendPayload, User } from '@/lib/contract';
import { signOut } from '@/lib/session/sign-out';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import { defaultAck, type FakeSocket } from '@/lib/socket/testing/fake-socket';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { publishUser } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useTypingStore } from '@/lib/stores/typing-store';
import { settle } from '@/lib/testing/deferred';
import { account, conversationIdOf, conversationMessage, ME, summary, threadPage } from '@/lib/testing/fixtures';
import { noteTyping, sendMessage, startMessagingSession, stopMessagingSession } from './messaging-session';
import { openConversation } from '../routing/conversation-route';

const api = vi.hoisted(() => ({
  listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationSummaryPage>>(),
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async () => ({ id: 9, username: 'u9', avatar: null, is_following: false, follows_you: false, followers_count: 0, following_count: 0, conversation_id: null })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

const me = (fields: Partial<User> = {}): User => account(fields);
const online = (id: number): PresencePayload => ({ user_id: id, online: true, last_seen_at: null });

let socket: FakeSocket;
/** The account cursor the list is read at (item seq 0); catch-up finds that nothing moved since. */
const LIST_CURSOR = '0.1.0.0';
/** What the fake server answers presence_subscribe with: the states of those asked for, if known. */
let visible: Record<number, PresencePayload>;

const subscriptions = () => socket.sentEvents('presence_subscribe').map(([, payload]) => (payload as { user_ids: number[] }).user_ids);
const typingSignals = () => socket.sentEvents('typing').map(([, payload]) => payload);

async function start(rows: ConversationSummary[] = [summary(2, conversationMessage(1)), summary(3, conversationMessage(2, { sender_id: 3 }))]): Promise<void> {
  api.listConversations.mockResolvedValue({ results: rows, next_cursor: null, account_cursor: LIST_CURSOR });
  publishUser(me());
  startMessagingSession(ME, { storage: createMemoryOutboxStorage() });
  socket = connectFakeSocket(ME);
  socket.ackResponder = async (event, payload) => {
    if (event === 'send') {
      const send = payload as SendPayload;
      return { data: conversationMessage(10, { sender_id: ME, peer: send.recipient_id, seq: 2, version: 2, client_id: send.client_id, text: send.text }) };
    }
    if (event === 'presence_subscribe') {
      const ids = (payload as { user_ids: number[] }).user_ids;
      return { data: { presence: ids.flatMap((id) => (visible[id] ? [visible[id]] : [])) } };
    }
    return event === 'read' ? { data: { count: 0, unread_count: 0 } } : defaultAck(event, payload);
  };
  await settle();
}

describe('live signals in the messaging session', () => {
  beforeEach(() => {
    resetFakeSocketService();
    api.listConversations.mockReset();
    api.listMessages.mockReset();
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(1)]));
    visible = { 2: online(2) };
  });
  afterEach(() => stopMessagingSession());

  it('shows who is typing, clears it when their message arrives, and never counts it', async () => {
    await start();
    socket.serverEmits('typing', { conversation_id: conversationIdOf(2), user_id: 2, typing: true });
    expect(useTypingStore.getState().typing).toEqual({ 2: true });
    expect(useCounterStore.getState().unread).toBe(0);
    expect(useConversationsStore.getState().conversations.map((row) => row.unread_count)).toEqual([0, 0]);
    socket.serverEmits('message', conversationMessage(5));
    expect(useTypingStore.getState().typing).toEqual({});
  });

  it('drops typing from someone the user has blocked (the server may still let one through)', async () => {
    await start();
    useSafetyStore.setState({ blocked: [{ id: 2, username: 'u2', avatar: null, blocked_at: '2026-11-26T00:00:00.000Z' }] });
    socket.serverEmits('typing', { conversation_id: conversationIdOf(2), user_id: 2, typing: true });
    expect(useTypingStore.getState().typing).toEqual({});
    useSafetyStore.setState({ blocked: [] });
    socket.serverEmits('typing', { conversation_id: conversationIdOf(2), user_id: 2, typing: true });
    expect(useTypingStore.getState().typing).toEqual({ 2: true });
  });

  it('typing from someone with no conversation adds no row and no thread', async () => {
    await start();
    socket.serverEmits('typing', { conversation_id: conversationIdOf(40), user_id: 40, typing: true });
    expect(useConversationsStore.getState().conversations.map((row) => row.user.id)).toEqual([3, 2]);
    expect(useThreadStore.getState().threads[40]).toBeUndefined();
  });

  it('sends typing as the box changes, and "stopped" when the message goes', async () => {
    await start();
    noteTyping(2, true);
    noteTyping(2, true);
    void sendMessage(2, 'hello');
    await settle();
    expect(typingSignals()).toEqual([
      { user_id: 2, typing: true },
      { user_id: 2, typing: false },
    ]);
  });

  it('follows the presence of the open conversation and the list, and applies the answer and later changes', async () => {
    await start();
    openConversation(9);
    // The open conversation first, then the list newest first.
    await vi.waitFor(() => expect(subscriptions().at(-1)).toEqual([9, 3, 2]));
    await vi.waitFor(() => expect(usePresenceStore.getState().presence).toEqual({ 2: { online: true, lastSeenAt: null } }));

    socket.serverEmits('presence', { user_id: 2, online: false, last_seen_at: '2025-01-01T12:00:00.000Z' });
    expect(usePresenceStore.getState().presence[2]).toEqual({ online: false, lastSeenAt: '2025-01-01T12:00:00.000Z' });
    // Hidden (turned off, unfollowed, deactivated): nothing is shown any more.
    socket.serverEmits('presence', { user_id: 2, online: false, last_seen_at: null });
    expect(usePresenceStore.getState().presence).toEqual({});
  });

  it('asks once for a burst of changes and not again for the same list', async () => {
    await start();
    await vi.waitFor(() => expect(subscriptions()).toEqual([[3, 2]]));
    useConversationsStore.setState({ conversations: [...useConversationsStore.getState().conversations] });
    openConversation(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(subscriptions()).toEqual([[3, 2]]);
    socket.serverEmits('message', conversationMessage(7, { sender_id: 4 }));
    await vi.waitFor(() => expect(subscriptions()).toEqual([[3, 2], [2, 4, 3]]));
  });

  it('asks again when someone it could not see reaches out, and after a reconnect', async () => {
    await start();
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(1));
    visible[3] = online(3);
    socket.serverEmits('follower', { follower_id: 3, followee_id: ME, following: true, followers_count: 1 });
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(2));
    await vi.waitFor(() => expect(usePresenceStore.getState().presence[3]).toEqual({ online: true, lastSeenAt: null }));
    // Someone already seen reaching out again changes nothing, nor does the list's new order.
    socket.serverEmits('message', conversationMessage(9, { sender_id: 3 }));
    socket.serverEmits('follower', { follower_id: 2, followee_id: ME, following: true, followers_count: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(subscriptions()).toHaveLength(2);

    socket.transportDrops();
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(3));
  });

  it('shows no one once the user hides their own presence, still following who the tab shows', async () => {
    await start();
    await vi.waitFor(() => expect(Object.keys(usePresenceStore.getState().presence)).toEqual(['2']));
    const asked = subscriptions().length;
    publishUser(me({ show_presence: false }));
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(asked + 1));
    expect(subscriptions().at(-1)).toEqual([3, 2]);
    expect(usePresenceStore.getState().presence).toEqual({});
  });

  it('drops what it showed while the connection is down, and shows it again once back', async () => {
    await start();
    await vi.waitFor(() => expect(Object.keys(usePresenceStore.getState().presence)).toEqual(['2']));
    socket.transportDrops();
    expect(usePresenceStore.getState().presence).toEqual({});
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(Object.keys(usePresenceStore.getState().presence)).toEqual(['2']));
  });

  it('forgets presence and typing at sign-out', async () => {
    await start();
    await vi.waitFor(() => expect(Object.keys(usePresenceStore.getState().presence)).toEqual(['2']));
    socket.serverEmits('typing', { conversation_id: conversationIdOf(2), user_id: 2, typing: true });
    signOut();
    expect(usePresenceStore.getState().presence).toEqual({});
    expect(useTypingStore.getState().typing).toEqual({});
  });
});
