// The composer's path: message → outbox → socket `send` → ack, run by the messaging session.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMessage, ConversationSummaryPage, SendPayload } from '@/lib/contract';
import { MAX_MESSAGE_LENGTH, SEND_REFUSALS } from '@/lib/contract';
import { createMemoryOutboxStorage, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { socketService } from '@/lib/socket/socket-service';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import { defaultAck, type FakeSocket } from '@/lib/socket/testing/fake-socket';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useDirectConversations } from '@/lib/stores/direct-conversations';
import { publishUser } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { deferred, settle } from '@/lib/testing/deferred';
import { conversationIdOf, conversationMessage, ME, message, user } from '@/lib/testing/fixtures';
import { retryMessage, sendMessage, startMessagingSession, stopMessagingSession } from './messaging-session';

const api = vi.hoisted(() => ({
  listMessages: vi.fn(),
  listConversations: vi.fn<() => Promise<ConversationSummaryPage>>(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async () => ({ ...user(2), followers_count: 0, following_count: 0, conversation_id: null })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

const thread = (peerId = 2) => useThreadStore.getState().threads[peerId];
const shown = (peerId = 2) => (thread(peerId)?.messages ?? []).map((m) => m.id ?? m.status);

/** The account cursor of the session's list (item seq 0). */
const LIST_CURSOR = '0.1.0.0';


/** A live socket to the quiet server. */
function connect(): FakeSocket {
  const socket = connectFakeSocket(ME);
  socket.ackResponder = defaultAck;
  return socket;
}

/**
 * The server's side of `send`: stores the message (once per client id) at its conversation's next
 * seq, the conversation with the recipient (begun by the first message), and acks it.
 */
function storingServer(socket: FakeSocket): ConversationMessage[] {
  const stored: ConversationMessage[] = [];
  socket.ackResponder = async (event, payload) => {
    if (event !== 'send') return defaultAck(event, payload);
    const send = payload as SendPayload;
    const existing = stored.find((m) => m.client_id === send.client_id);
    if (existing) return { data: existing };
    const seq = stored.filter((m) => m.conversation_id === conversationIdOf(send.recipient_id!)).length + 1;
    const saved = conversationMessage(100 + stored.length, { sender_id: ME, peer: send.recipient_id!, seq, version: seq, client_id: send.client_id, text: send.text, minute: 50 });
    stored.push(saved);
    return { data: saved };
  };
  return stored;
}

/** What the thread and the list hold of ME's `saved` message to `peerId`: not read yet. */
const held = (saved: ConversationMessage, peerId = 2) =>
  message(saved.id, { sender_id: ME, recipient_id: peerId, client_id: saved.client_id, text: saved.text, created_at: saved.created_at, seq: saved.seq, version: saved.version });

describe('sending through the messaging session', () => {
  let storage: OutboxStorage;

  beforeEach(async () => {
    resetFakeSocketService();
    storage = createMemoryOutboxStorage();
    api.listConversations.mockResolvedValue({ results: [], next_cursor: null, account_cursor: LIST_CURSOR });
    publishUser({ id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true });
    start();
    await settle();
  });

  afterEach(() => stopMessagingSession());

  /** The session for ME, without connecting yet (the fake socket waits for serverAcceptsConnection). */
  function start(): void {
    startMessagingSession(ME, { storage });
  }

  /** A live socket whose init the server has acknowledged: sends may go out. */
  async function readySocket(): Promise<FakeSocket> {
    const socket = connect();
    await vi.waitFor(() => expect(socketService.isReady()).toBe(true));
    return socket;
  }

  it('shows the message at once as sending, then sent with the stored id; the conversation moves up', async () => {
    const socket = await readySocket();
    const ack = deferred<unknown>();
    socket.ackResponder = (event, payload) => (event === 'send' ? ack.promise : defaultAck(event, payload));
    const sending = sendMessage(2, '  hello  ');
    const [optimistic] = thread()?.messages ?? [];
    expect(optimistic).toMatchObject({ id: null, status: 'sending', text: 'hello', sender_id: ME, recipient_id: 2 });
    await vi.waitFor(() => expect(socket.sentEvents('send')).toHaveLength(1));
    const [, payload] = socket.sentEvents('send')[0] ?? [];
    expect(payload).toEqual({ client_id: optimistic?.client_id, recipient_id: 2, text: 'hello', attachment_id: null, reply_to: null });

    const stored = conversationMessage(50, { sender_id: ME, peer: 2, seq: 1, version: 1, client_id: optimistic?.client_id, text: 'hello' });
    ack.resolve({ data: stored });
    await expect(sending).resolves.toEqual({ status: 'sent', message: held(stored) });
    expect(thread()?.messages).toEqual([{ ...held(stored), status: 'sent', error: null }]);
    expect(useConversationsStore.getState().conversations[0]).toMatchObject({ last_message: held(stored), unread_count: 0 });
  });

  it('a first message to someone new: its ack names the conversation it began, learnt as the one with them', async () => {
    const socket = await readySocket();
    const stored = storingServer(socket);
    expect(useDirectConversations.getState().byPeer[5]).toBeUndefined();
    await expect(sendMessage(5, 'hello')).resolves.toMatchObject({ status: 'sent' });
    expect(stored[0]?.conversation_id).toBe(conversationIdOf(5));
    expect(useDirectConversations.getState().byPeer[5]).toBe(stored[0]?.conversation_id);
    expect(useDirectConversations.getState().byConversation[conversationIdOf(5)]).toBe(5);
    // Their thread holds the conversation from its first message on.
    expect(thread(5)).toMatchObject({ conversationId: conversationIdOf(5) });
  });

  it('a refusal marks the message failed for good, with the reason in the reader’s words', async () => {
    const socket = await readySocket();
    socket.ackResponder = async (event, payload) =>
      event === 'send' ? { error: { non_field_errors: [SEND_REFUSALS.not_allowed] } } : defaultAck(event, payload);
    const result = await sendMessage(2, 'hi');
    expect(result).toMatchObject({ status: 'failed', error: 'this person isn’t accepting messages from you.' });
    expect(thread()?.messages[0]).toMatchObject({ id: null, status: 'failed', refusal: 'not_allowed', error: 'this person isn’t accepting messages from you.' });
  });

  it('while offline the message waits as sending and goes out once connected, exactly once', async () => {
    const sending = sendMessage(2, 'written offline');
    expect(thread()?.messages[0]).toMatchObject({ id: null, status: 'sending' });
    const socket = connect();
    const stored = storingServer(socket);
    await expect(sending).resolves.toMatchObject({ status: 'sent' });
    expect(stored.map((m) => m.text)).toEqual(['written offline']);
    expect(shown()).toEqual([100]);
  });

  it('a lost ack is retried with the same client id; the server’s dedup leaves one message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const socket = await readySocket();
      const stored = storingServer(socket);
      const respond = socket.ackResponder;
      let dropFirstAck = true;
      // The server stores the first send but its ack is lost (timeout).
      socket.ackResponder = async (event, payload) => {
        const answer = await respond(event, payload);
        if (event !== 'send' || !dropFirstAck) return answer;
        dropFirstAck = false;
        return { error: { msg: 'operation has timed out' } };
      };
      const sending = sendMessage(2, 'hi');
      await vi.waitFor(() => expect(socket.sentEvents('send')).toHaveLength(1));
      expect(thread()?.messages[0]).toMatchObject({ status: 'sending' });
      await vi.advanceTimersByTimeAsync(2_000);
      await expect(sending).resolves.toEqual({ status: 'sent', message: held(stored[0]!) });
      const sends = socket.sentEvents('send').map(([, payload]) => (payload as SendPayload).client_id);
      expect(new Set(sends).size).toBe(1);
      expect(sends).toHaveLength(2);
      expect(stored).toHaveLength(1);
      expect(shown()).toEqual([100]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retry sends a refused message again with its client id', async () => {
    const socket = await readySocket();
    socket.ackResponder = async () => ({ error: { non_field_errors: ['recipient_id: User not found.'] } });
    const failed = await sendMessage(2, 'hi');
    const clientId = failed.status === 'failed' ? failed.clientId : '';
    const stored = storingServer(socket);
    await expect(retryMessage(clientId)).resolves.toMatchObject({ status: 'sent' });
    expect(stored.map((m) => m.client_id)).toEqual([clientId]);
    await expect(retryMessage('unknown')).resolves.toMatchObject({ status: 'failed' });
  });

  it('what an earlier session left unsent reappears as sending and goes out', async () => {
    // Written while offline, then the session ends (a reload): it stays in the outbox.
    const abandoned = sendMessage(2, 'left behind');
    await settle();
    stopMessagingSession();
    await expect(abandoned).resolves.toMatchObject({ status: 'failed' });
    expect(thread()).toBeUndefined();

    start();
    await vi.waitFor(() =>
      expect(thread()?.messages).toEqual([expect.objectContaining({ text: 'left behind', status: 'sending', id: null })]),
    );
    const socket = connect();
    const stored = storingServer(socket);
    await vi.waitFor(() => expect(shown()).toEqual([100]));
    expect(stored.map((m) => m.text)).toEqual(['left behind']);
  });

  it('refuses text over the limit, or nothing at all, before sending', async () => {
    const socket = await readySocket();
    const tooLong = await sendMessage(2, 'x'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect(tooLong).toMatchObject({ status: 'invalid', problem: { reason: 'too_long', length: MAX_MESSAGE_LENGTH + 1, max: MAX_MESSAGE_LENGTH } });
    expect(tooLong.status === 'invalid' && tooLong.error).toMatch(/too long/);
    await expect(sendMessage(2, '   ')).resolves.toMatchObject({ status: 'invalid', problem: { reason: 'empty' } });
    expect(socket.sentEvents('send')).toEqual([]);
    expect(thread()).toBeUndefined();
    storingServer(socket);
    await expect(sendMessage(2, 'x'.repeat(MAX_MESSAGE_LENGTH))).resolves.toMatchObject({ status: 'sent' });
  });

  it('sends an attachment without text, by its id', async () => {
    const socket = await readySocket();
    storingServer(socket);
    const attachment = { id: 'f1', name: 'a.png', mime_type: 'image/png', size: 10, width: 1, height: 1, url: '/api/uploads/f1/a.png' };
    await sendMessage(2, '', { attachment });
    expect(socket.sentEvents('send')[0]?.[1]).toMatchObject({ text: '', attachment_id: 'f1' });
  });

  it('a reply written offline keeps its quote across a reload and goes out with reply_to', async () => {
    const quote = { id: 40, sender_id: 2, text: 'Where?', deleted: false, attachment: null };
    const abandoned = sendMessage(2, 'Here', { replyTo: quote });
    await settle();
    expect(thread()?.messages[0]).toMatchObject({ text: 'Here', status: 'sending', reply_to: quote });
    stopMessagingSession();
    await abandoned;

    start();
    await vi.waitFor(() => expect(thread()?.messages).toEqual([expect.objectContaining({ text: 'Here', reply_to: quote })]));
    const socket = connect();
    storingServer(socket);
    await vi.waitFor(() => expect(socket.sentEvents('send')).toHaveLength(1));
    expect(socket.sentEvents('send')[0]?.[1]).toMatchObject({ text: 'Here', reply_to: 40 });
  });
});
