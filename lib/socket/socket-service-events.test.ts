// The messaging events added for issue #3; the SPEC events are in socket-service.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useCounterStore } from '@/lib/stores/counter-store';
import { message as buildMessage } from '@/lib/testing/fixtures';
import { createServiceHarness, type ServiceHarness } from './testing/service-harness';

const message = buildMessage(1);

let harness: ServiceHarness;

describe('socket service: messaging events', () => {
  beforeEach(() => {
    harness = createServiceHarness();
  });

  it('read emits {user_id} and resolves with the server ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = async () => ({ data: { count: 3 } });
    await expect(harness.service.readConversation({ user_id: 2 })).resolves.toEqual({ data: { count: 3 } });
    expect(socket.sentEvents('read')).toEqual([['read', { user_id: 2 }, { timeout: expect.any(Number) }]]);
    // The total comes from message_count only (SPEC §4), never from this ack.
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('followed also reaches follow-change subscribers with its payload', () => {
    const socket = harness.connectedService();
    const spec = vi.fn();
    const change = vi.fn();
    harness.service.onFollowed(spec);
    harness.service.onFollowChange(change);
    const payload = { follower_id: 7, followee_id: 2, following: true, followers_count: 4 };
    socket.serverEmits('followed', payload);
    expect(spec).toHaveBeenCalledExactlyOnceWith(false);
    expect(change).toHaveBeenCalledExactlyOnceWith(payload);
  });

  it('message_sent is forwarded without touching the unread count', () => {
    const socket = harness.connectedService();
    const sentListener = vi.fn();
    const messageListener = vi.fn();
    harness.service.onMessageSent(sentListener);
    harness.service.onMessage(messageListener);
    const own = { ...message, sender_id: 7, recipient_id: 2 };
    socket.serverEmits('message_sent', own);
    expect(sentListener).toHaveBeenCalledExactlyOnceWith(own);
    expect(messageListener).not.toHaveBeenCalled();
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('follower and conversation_read reach their subscribers until they unsubscribe', () => {
    const socket = harness.connectedService();
    const follower = vi.fn();
    const read = vi.fn();
    const stopFollower = harness.service.onFollower(follower);
    const stopRead = harness.service.onConversationRead(read);
    const payload = { follower_id: 2, followee_id: 7, following: false, followers_count: 0 };
    socket.serverEmits('follower', payload);
    socket.serverEmits('conversation_read', { user_id: 2 });
    stopFollower();
    stopRead();
    socket.serverEmits('follower', payload);
    socket.serverEmits('conversation_read', { user_id: 2 });
    expect(follower).toHaveBeenCalledExactlyOnceWith(payload);
    expect(read).toHaveBeenCalledExactlyOnceWith({ user_id: 2 });
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('connect subscribers run on every connection, after its init went out', () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    const initsSeen: number[] = [];
    harness.service.onConnect(() => initsSeen.push(socket.sentEvents('init').length));
    socket.serverAcceptsConnection();
    socket.transportDrops();
    socket.managerReconnects(1);
    expect(initsSeen).toEqual([1, 2]);
  });
});
