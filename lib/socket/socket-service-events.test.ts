// Requests with acks, readiness and the browser's connectivity; the events' delivery is in
// socket-service.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createServiceHarness, type ServiceHarness } from './testing/service-harness';

let harness: ServiceHarness;

describe('socket service: messaging events', () => {
  beforeEach(() => {
    harness = createServiceHarness();
  });

  it('read emits {conversation_id, up_to} and resolves with the server ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = async () => ({ data: { count: 3, unread_count: 0 } });
    await expect(harness.service.request('read', { conversation_id: 1002, up_to: 5 })).resolves.toEqual({ data: { count: 3, unread_count: 0 } });
    expect(socket.sentEvents('read')).toEqual([['read', { conversation_id: 1002, up_to: 5 }, { timeout: expect.any(Number) }]]);
  });

  it('ready listeners run on every connection once the server acknowledged its init', async () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    const initsSeen: number[] = [];
    harness.service.on('ready', () => initsSeen.push(socket.sentEvents('init').length));
    socket.serverAcceptsConnection();
    expect(harness.service.isReady()).toBe(false); // init sent, not yet acknowledged
    await vi.waitFor(() => expect(initsSeen).toEqual([1]));
    expect(harness.service.isReady()).toBe(true);
    socket.transportDrops();
    expect(harness.service.isReady()).toBe(false);
    socket.managerReconnects(1);
    await vi.waitFor(() => expect(initsSeen).toEqual([1, 2]));
  });

  it('a refused init neither makes the socket ready nor runs ready listeners', async () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    socket.ackResponder = async () => ({ error: { msg: 'Unauthorized' } });
    const connected = vi.fn();
    harness.service.on('ready', connected);
    socket.serverAcceptsConnection();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(connected).not.toHaveBeenCalled();
    expect(harness.service.isReady()).toBe(false);
  });

  it('drops the connection when the browser goes offline and reconnects when it is back', () => {
    const socket = harness.connectedService(7);
    window.dispatchEvent(new Event('offline'));
    expect(socket.active).toBe(false);
    expect(harness.service.status()).toBe('disconnected');
    window.dispatchEvent(new Event('online'));
    expect(socket.active).toBe(true);
    expect(socket.connectCalls).toBe(2);
  });

  it('opened without a network (no offline event ever fired), it waits for the browser to be online', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    expect(socket.connectCalls).toBe(0);
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(socket.connectCalls).toBe(1);
  });
});
