import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePayload, Page, SendPayload } from '@/lib/contract';
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';
import { isReady } from '@/lib/socket/socket-service';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import type { FakeSocket } from '@/lib/socket/testing/fake-socket';
import { deferred } from '@/lib/testing/deferred';
import { ME, message, user } from '@/lib/testing/fixtures';
import { resetConversationsStore, useConversationsStore } from './conversations-store';
import { publishUser, resetSessionStore } from './session-store';
import { resetAppOutboxStorage } from '@/lib/outbox/outbox-storage';
import { resetThreadStore, useThreadStore } from './thread-store';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(userId: number, cursor?: string | null) => Promise<Page<MessagePayload>>>(),
  listConversations: vi.fn(),
}));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => ({ getProfile: vi.fn(async () => ({ ...user(2), followers_count: 0, following_count: 0 })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

const threads = () => useThreadStore.getState();
const thread = (peerId = 2) => threads().threads[peerId];
const shown = (peerId = 2) => (thread(peerId)?.messages ?? []).map((m) => m.id ?? m.status);

/** The server's side of `send`: stores the message (once per client id) and acks it. */
function storingServer(socket: FakeSocket): MessagePayload[] {
  const stored: MessagePayload[] = [];
  socket.ackResponder = async (event, payload) => {
    if (event !== 'send') return { data: payload };
    const send = payload as SendPayload;
    const existing = stored.find((m) => m.client_id === send.client_id);
    if (existing) return { data: existing };
    const saved = message(100 + stored.length, { sender_id: ME, recipient_id: send.recipient_id, client_id: send.client_id, text: send.text, minute: 50 });
    stored.push(saved);
    return { data: saved };
  };
  return stored;
}

describe('thread store: history', () => {
  beforeEach(() => {
    resetThreadStore();
    resetConversationsStore();
    resetSessionStore();
    resetFakeSocketService();
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
    api.listMessages.mockRejectedValueOnce(new Error('Try later.')).mockResolvedValueOnce({ results: [message(1)], next_cursor: null });
    await threads().loadThread(2);
    expect(thread()).toMatchObject({ status: 'error', error: 'Try later.' });
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
});

describe('thread store: sending', () => {
  beforeEach(async () => {
    resetThreadStore();
    resetAppOutboxStorage();
    resetConversationsStore();
    resetSessionStore();
    resetFakeSocketService();
    publishUser({ id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone' });
    await threads().startOutbox(ME);
  });

  /** A live socket whose init the server has acknowledged: sends may go out. */
  async function readySocket(): Promise<FakeSocket> {
    const socket = connectFakeSocket(ME);
    await vi.waitFor(() => expect(isReady()).toBe(true));
    return socket;
  }

  it('shows the message at once as sending, then sent with the stored id; the conversation moves up', async () => {
    const socket = await readySocket();
    const ack = deferred<unknown>();
    socket.ackResponder = () => ack.promise;
    const sending = threads().sendMessage(2, '  hello  ');
    const [optimistic] = thread()?.messages ?? [];
    expect(optimistic).toMatchObject({ id: null, status: 'sending', text: 'hello', sender_id: ME, recipient_id: 2 });
    await vi.waitFor(() => expect(socket.sentEvents('send')).toHaveLength(1));
    const [, payload] = socket.sentEvents('send')[0] ?? [];
    expect(payload).toEqual({ client_id: optimistic?.client_id, recipient_id: 2, text: 'hello', attachment_id: null });

    const stored = message(50, { sender_id: ME, recipient_id: 2, client_id: optimistic?.client_id, text: 'hello' });
    ack.resolve({ data: stored });
    await expect(sending).resolves.toEqual({ status: 'sent', message: stored });
    expect(thread()?.messages).toEqual([{ ...stored, status: 'sent', error: null }]);
    expect(useConversationsStore.getState().conversations[0]).toMatchObject({ last_message: stored, unread_count: 0 });
  });

  it('a refusal marks the message failed with the server’s message', async () => {
    const socket = await readySocket();
    socket.ackResponder = async () => ({ error: { non_field_errors: ['recipient_id: unknown user.'] } });
    const result = await threads().sendMessage(2, 'hi');
    expect(result).toMatchObject({ status: 'failed', error: 'recipient_id: unknown user.' });
    expect(thread()?.messages[0]).toMatchObject({ id: null, status: 'failed', error: 'recipient_id: unknown user.' });
  });

  it('while offline the message waits as sending and goes out once connected, exactly once', async () => {
    const sending = threads().sendMessage(2, 'written offline');
    expect(thread()?.messages[0]).toMatchObject({ id: null, status: 'sending' });
    const socket = connectFakeSocket(ME);
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
      const sending = threads().sendMessage(2, 'hi');
      await vi.waitFor(() => expect(socket.sentEvents('send')).toHaveLength(1));
      expect(thread()?.messages[0]).toMatchObject({ status: 'sending' });
      await vi.advanceTimersByTimeAsync(2_000);
      await expect(sending).resolves.toEqual({ status: 'sent', message: stored[0] });
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
    const failed = await threads().sendMessage(2, 'hi');
    const clientId = failed.status === 'failed' ? failed.clientId : '';
    const stored = storingServer(socket);
    await expect(threads().retryMessage(clientId)).resolves.toMatchObject({ status: 'sent' });
    expect(stored.map((m) => m.client_id)).toEqual([clientId]);
    await expect(threads().retryMessage('unknown')).resolves.toMatchObject({ status: 'failed' });
  });

  it('what an earlier session left unsent reappears as sending and goes out', async () => {
    // Written while offline, then the session ends (a reload): it stays in the outbox.
    const abandoned = threads().sendMessage(2, 'left behind');
    resetThreadStore();
    await expect(abandoned).resolves.toMatchObject({ status: 'failed' });
    expect(thread()).toBeUndefined();

    await threads().startOutbox(ME);
    expect(thread()?.messages).toEqual([expect.objectContaining({ text: 'left behind', status: 'sending', id: null })]);
    const socket = connectFakeSocket(ME);
    const stored = storingServer(socket);
    await vi.waitFor(() => expect(shown()).toEqual([100]));
    expect(stored.map((m) => m.text)).toEqual(['left behind']);
  });

  it('refuses text over the limit, or nothing at all, before sending', async () => {
    const socket = await readySocket();
    const tooLong = await threads().sendMessage(2, 'x'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect(tooLong).toMatchObject({ status: 'invalid', problem: { reason: 'too_long', length: MAX_MESSAGE_LENGTH + 1, max: MAX_MESSAGE_LENGTH } });
    expect(tooLong.status === 'invalid' && tooLong.error).toMatch(/too long/);
    await expect(threads().sendMessage(2, '   ')).resolves.toMatchObject({ status: 'invalid', problem: { reason: 'empty' } });
    expect(socket.sentEvents('send')).toEqual([]);
    expect(thread()).toBeUndefined();
    storingServer(socket);
    await expect(threads().sendMessage(2, 'x'.repeat(MAX_MESSAGE_LENGTH))).resolves.toMatchObject({ status: 'sent' });
  });

  it('sends an attachment without text, by its id', async () => {
    const socket = await readySocket();
    storingServer(socket);
    const attachment = { id: 'f1', name: 'a.png', mime_type: 'image/png', size: 10, width: 1, height: 1, url: '/api/uploads/f1/a.png' };
    await threads().sendMessage(2, '', { attachment });
    expect(socket.sentEvents('send')[0]?.[1]).toMatchObject({ text: '', attachment_id: 'f1' });
  });
});
