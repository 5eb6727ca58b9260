// The messaging events added for issue #3; the SPEC events are in socket-service.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectionStore } from '@/lib/stores/connection-store';
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

  it('connect subscribers run on every connection once the server acknowledged its init', async () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    const initsSeen: number[] = [];
    harness.service.onConnect(() => initsSeen.push(socket.sentEvents('init').length));
    socket.serverAcceptsConnection();
    expect(harness.service.isReady()).toBe(false); // init sent, not yet acknowledged
    await vi.waitFor(() => expect(initsSeen).toEqual([1]));
    expect(harness.service.isReady()).toBe(true);
    socket.transportDrops();
    expect(harness.service.isReady()).toBe(false);
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(initsSeen).toEqual([1, 2]));
  });

  it('a refused init neither makes the socket ready nor runs connect subscribers', async () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    socket.ackResponder = async () => ({ error: { msg: 'Unauthorized' } });
    const connected = vi.fn();
    harness.service.onConnect(connected);
    socket.serverAcceptsConnection();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(connected).not.toHaveBeenCalled();
    expect(harness.service.isReady()).toBe(false);
  });

  it('drops the connection when the browser goes offline and reconnects when it is back', () => {
    const socket = harness.connectedService(7);
    window.dispatchEvent(new Event('offline'));
    expect(socket.active).toBe(false);
    expect(useConnectionStore.getState().status).toBe('disconnected');
    window.dispatchEvent(new Event('online'));
    expect(socket.active).toBe(true);
    expect(socket.connectCalls).toBe(2);
  });
});
