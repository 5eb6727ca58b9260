import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePayload, Page, SendPayload } from '@/lib/contract';
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import type { FakeSocket } from '@/lib/socket/testing/fake-socket';
import { deferred } from '@/lib/testing/deferred';
import { ME, message, user } from '@/lib/testing/fixtures';
import { resetConversationsStore, useConversationsStore } from './conversations-store';
import { publishUser, resetSessionStore } from './session-store';
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

  it('a refresh merges the newest page and keeps the older cursor', async () => {
    api.listMessages
      .mockResolvedValueOnce({ results: [message(2), message(1)], next_cursor: 'older' })
      .mockResolvedValueOnce({ results: [message(3), message(2)], next_cursor: 'other' });
    await threads().loadThread(2);
    await threads().refreshThread(2);
    expect(shown()).toEqual([1, 2, 3]);
    expect(thread()?.nextCursor).toBe('older');
  });

  it('forgetting threads keeps the open one and unsent messages', async () => {
    api.listMessages.mockResolvedValue({ results: [message(1)], next_cursor: null });
    await threads().loadThread(2);
    await threads().loadThread(3);
    await threads().sendMessage(4, 'not connected, so it fails');
    threads().forgetThreadsExcept(2);
    expect(shown(2)).toEqual([1]);
    expect(thread(3)).toBeUndefined();
    expect(thread(4)).toMatchObject({ status: 'idle' });
    expect(shown(4)).toEqual(['failed']);
  });
});

describe('thread store: sending', () => {
  beforeEach(() => {
    resetThreadStore();
    resetConversationsStore();
    resetSessionStore();
    resetFakeSocketService();
    publishUser({ id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true });
  });

  it('shows the message at once as sending, then sent with the stored id; the conversation moves up', async () => {
    const socket = connectFakeSocket(ME);
    const ack = deferred<unknown>();
    socket.ackResponder = () => ack.promise;
    const sending = threads().sendMessage(2, '  hello  ');
    const [optimistic] = thread()?.messages ?? [];
    expect(optimistic).toMatchObject({ id: null, status: 'sending', text: 'hello', sender_id: ME, recipient_id: 2 });
    const [, payload] = socket.sentEvents('send')[0] ?? [];
    expect(payload).toEqual({ client_id: optimistic?.client_id, recipient_id: 2, text: 'hello', attachment_id: null });

    const stored = message(50, { sender_id: ME, recipient_id: 2, client_id: optimistic?.client_id, text: 'hello' });
    ack.resolve({ data: stored });
    await expect(sending).resolves.toEqual({ status: 'sent', message: stored });
    expect(thread()?.messages).toEqual([{ ...stored, status: 'sent', error: null }]);
    expect(useConversationsStore.getState().conversations[0]).toMatchObject({ last_message: stored, unread_count: 0 });
  });

  it('an error ack marks the message failed with the server’s message', async () => {
    const socket = connectFakeSocket(ME);
    socket.ackResponder = async () => ({ error: { non_field_errors: ['recipient_id: unknown user.'] } });
    const result = await threads().sendMessage(2, 'hi');
    expect(result).toMatchObject({ status: 'failed', error: 'recipient_id: unknown user.' });
    expect(thread()?.messages[0]).toMatchObject({ id: null, status: 'failed', error: 'recipient_id: unknown user.' });
  });

  it('retry resends the same client id; the server’s dedup leaves one message', async () => {
    const socket = connectFakeSocket(ME);
    const stored = storingServer(socket);
    const respond = socket.ackResponder;
    let dropFirstAck = true;
    // The server stores the first send but its ack is lost (timeout).
    socket.ackResponder = async (event, payload) => {
      const answer = await respond(event, payload);
      if (!dropFirstAck) return answer;
      dropFirstAck = false;
      return { error: { msg: 'operation has timed out' } };
    };
    const first = await threads().sendMessage(2, 'hi');
    expect(first.status).toBe('failed');
    const clientId = first.status === 'failed' ? first.clientId : '';
    const retried = await threads().retryMessage(clientId);
    const sends = socket.sentEvents('send').map(([, payload]) => (payload as SendPayload).client_id);
    expect(sends).toEqual([clientId, clientId]);
    expect(stored).toHaveLength(1);
    expect(retried).toEqual({ status: 'sent', message: stored[0] });
    expect(shown()).toEqual([100]);
  });

  it('retrying a message already being resent joins that delivery', async () => {
    const socket = connectFakeSocket(ME);
    socket.ackResponder = async () => ({ error: { msg: 'offline' } });
    const failed = await threads().sendMessage(2, 'hi');
    const clientId = failed.status === 'failed' ? failed.clientId : '';
    storingServer(socket);
    const [a, b] = await Promise.all([threads().retryMessage(clientId), threads().retryMessage(clientId)]);
    expect(a).toEqual(b);
    expect(socket.sentEvents('send')).toHaveLength(2);
    await expect(threads().retryMessage('unknown')).resolves.toMatchObject({ status: 'failed' });
  });

  it('refuses text over the limit, or nothing at all, before sending', async () => {
    const socket = connectFakeSocket(ME);
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
    const socket = connectFakeSocket(ME);
    storingServer(socket);
    const attachment = { id: 'f1', name: 'a.png', mime_type: 'image/png', size: 10, width: 1, height: 1, url: '/api/uploads/f1/a.png' };
    await threads().sendMessage(2, '', { attachment });
    expect(socket.sentEvents('send')[0]?.[1]).toMatchObject({ text: '', attachment_id: 'f1' });
  });
});
