import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePayload } from '@/lib/contract';
import { storeToken } from '@/lib/session/storage';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { createServiceHarness, type ServiceHarness } from './testing/service-harness';

const message: MessagePayload = {
  id: 1,
  client_id: 'c1',
  sender_id: 2,
  recipient_id: 7,
  text: 'hi',
  created_at: '2025-01-01T00:00:00.000Z',
  read_at: null,
  attachment: null,
  seq: 1,
};

let harness: ServiceHarness;

describe('socket service', () => {
  beforeEach(() => {
    harness = createServiceHarness();
  });

  it('creates the socket lazily, once, without auto-connecting', () => {
    expect(harness.sockets).toHaveLength(0);
    harness.service.initSocket(7);
    harness.service.initSocket(7);
    expect(harness.sockets).toHaveLength(1);
    expect(harness.lastSocket().options.autoConnect).toBe(false);
    expect(harness.lastSocket().options).not.toHaveProperty('reconnectionDelay');
    expect(harness.lastSocket().connectCalls).toBe(1);
  });

  it('sends init {id} exactly once on the first connect and records the id', () => {
    const socket = harness.connectedService(7);
    expect(useCounterStore.getState().socketUserId).toBe(7);
    expect(socket.sentEvents('init')).toEqual([['init', { id: 7 }]]);
  });

  it('sends init again after every reconnect', () => {
    const socket = harness.connectedService(7);
    socket.transportDrops();
    expect(useConnectionStore.getState().status).toBe('connecting');
    socket.managerReconnects(1);
    socket.transportDrops();
    socket.managerReconnects(3);
    expect(socket.sentEvents('init')).toEqual([
      ['init', { id: 7 }],
      ['init', { id: 7 }],
      ['init', { id: 7 }],
    ]);
  });

  it('does nothing for the same user on a live connection (no second init, no second count)', () => {
    const socket = harness.connectedService(7);
    harness.service.initSocket(7);
    expect(socket.sentEvents('init')).toEqual([['init', { id: 7 }]]);
    expect(socket.connectCalls).toBe(1);
  });

  it('reconnects for a different user so the handshake carries the new token', () => {
    const socket = harness.connectedService(7);
    storeToken('second-user');
    harness.service.initSocket(8);
    expect(socket.connected).toBe(false);
    expect(socket.connectCalls).toBe(2);
    expect(socket.handshakeAuth()).toEqual({ token: 'Bearer second-user' });
    socket.serverAcceptsConnection();
    expect(socket.sentEvents('init')).toEqual([
      ['init', { id: 7 }],
      ['init', { id: 8 }],
    ]);
  });

  it('reads the stored token at every handshake', () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    expect(socket.handshakeAuth()).toEqual({ token: '' });
    storeToken('abc');
    expect(socket.handshakeAuth()).toEqual({ token: 'Bearer abc' });
  });

  it('ignores connect apart from the status', () => {
    const socket = harness.connectedService(7);
    expect(useCounterStore.getState().unread).toBe(0);
    expect(useConnectionStore.getState().status).toBe('connected');
    socket.serverEmits('connect');
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('message_count sets the unread count', () => {
    const socket = harness.connectedService();
    useCounterStore.getState().setUnread(9);
    socket.serverEmits('message_count', { count: 4 });
    expect(useCounterStore.getState().unread).toBe(4);
    socket.serverEmits('message_count', { count: 0 });
    expect(useCounterStore.getState().unread).toBe(0);
  });

  it('message adds one to the unread count and reaches subscribers until they unsubscribe', () => {
    const socket = harness.connectedService();
    const listener = vi.fn();
    const unsubscribe = harness.service.onMessage(listener);
    socket.serverEmits('message_count', { count: 2 });
    socket.serverEmits('message', message);
    expect(useCounterStore.getState().unread).toBe(3);
    expect(listener).toHaveBeenCalledWith(message);
    unsubscribe();
    socket.serverEmits('message', message);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(useCounterStore.getState().unread).toBe(4);
  });

  it('followed notifies subscribers with false, whatever the payload', () => {
    const socket = harness.connectedService();
    const listener = vi.fn();
    const unsubscribe = harness.service.onFollowed(listener);
    socket.serverEmits('followed', { follower_id: 2, followee_id: 7, following: true, followers_count: 1 });
    expect(listener).toHaveBeenCalledExactlyOnceWith(false);
    unsubscribe();
    socket.serverEmits('followed', { follower_id: 2, followee_id: 7, following: true, followers_count: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('send and follow resolve with the server ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = async (event, payload) => ({ data: { event, payload } });
    const send = { client_id: 'c1', recipient_id: 2, text: 'hi' };
    await expect(harness.service.sendMessage(send)).resolves.toEqual({ data: { event: 'send', payload: send } });
    await expect(harness.service.followUser({ user_id: 2, follow: true })).resolves.toEqual({
      data: { event: 'follow', payload: { user_id: 2, follow: true } },
    });
    expect(socket.sentEvents('send')[0]?.[2]).toEqual({ timeout: expect.any(Number) });
  });

  it('turns a timed-out ack into an error ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = () => Promise.reject(new Error('operation has timed out'));
    await expect(harness.service.sendMessage({ client_id: 'c1', recipient_id: 2, text: 'hi' })).resolves.toEqual({
      error: { msg: 'operation has timed out' },
    });
  });

  it('refuses to send before any connection', async () => {
    await expect(harness.service.followUser({ user_id: 2, follow: true })).resolves.toEqual({
      error: { msg: 'Not connected.' },
    });
  });

  it('disconnect drops queued emits and reports disconnected', () => {
    const socket = harness.connectedService();
    socket.transportDrops();
    socket.emit('send', { text: 'queued while offline' });
    harness.service.disconnectSocket();
    expect(socket.active).toBe(false);
    expect(socket.sendBuffer).toEqual([]);
    expect(useConnectionStore.getState().status).toBe('disconnected');
  });

  it('reconnects the same socket for the next user', () => {
    const socket = harness.connectedService(7);
    harness.service.disconnectSocket();
    harness.service.initSocket(8);
    expect(harness.sockets).toHaveLength(1);
    expect(socket.connectCalls).toBe(2);
    socket.serverAcceptsConnection();
    expect(socket.sentEvents('init')).toEqual([
      ['init', { id: 7 }],
      ['init', { id: 8 }],
    ]);
  });

  it('tracks the connection status through a reconnect', () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    expect(useConnectionStore.getState().status).toBe('connecting');
    socket.serverAcceptsConnection();
    expect(useConnectionStore.getState().status).toBe('connected');
    socket.transportDrops();
    socket.io.fire('reconnect_attempt', 2);
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connecting', reconnectAttempt: 2 });
    socket.serverAcceptsConnection();
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connected', reconnectAttempt: 0 });
  });
});
