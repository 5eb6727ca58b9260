import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_PROTOCOL, type AccountItem, type ConversationMessage, type SeenPayload } from '@/lib/contract';
import { storeToken } from '@/lib/session/storage';
import { createSocketService, type ClientSocket } from './socket-service';
import { FakeSocket } from './testing/fake-socket';
import { createServiceHarness, type ServiceHarness } from './testing/service-harness';

const message: ConversationMessage = {
  id: 1,
  conversation_id: 1002,
  seq: 1,
  version: 1,
  client_id: 'c1',
  sender_id: 2,
  text: 'hi',
  attachment: null,
  attachment_removed: false,
  created_at: '2025-01-01T00:00:00.000Z',
  edited_at: null,
  deleted: false,
  reactions: [],
  reply_to: null,
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
    expect(harness.service.userId()).toBe(0);
    const socket = harness.connectedService(7);
    expect(harness.service.userId()).toBe(7);
    expect(socket.sentEvents('init')).toEqual([['init', { id: 7 }]]);
  });

  it('asks init again, later each time, when the server refuses it on a connection that stays open', async () => {
    vi.useFakeTimers();
    try {
      harness.service.initSocket(7);
      const socket = harness.lastSocket();
      let refusals = 2;
      socket.ackResponder = async () => (refusals-- > 0 ? { error: { msg: 'Too many requests, slow down.' } } : { data: { id: 7, edit_window_ms: 1, unsend_window_ms: 1 } });
      socket.serverAcceptsConnection();
      await vi.advanceTimersByTimeAsync(0);
      expect(harness.service.isReady()).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(socket.sentEvents('init')).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(socket.sentEvents('init')).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(socket.sentEvents('init')).toHaveLength(3);
      expect(harness.service.isReady()).toBe(true);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(socket.sentEvents('init')).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not ask init again once the connection is gone', async () => {
    vi.useFakeTimers();
    try {
      harness.service.initSocket(7);
      const socket = harness.lastSocket();
      socket.ackResponder = async () => ({ error: { msg: 'This account has been deactivated.' } });
      socket.serverAcceptsConnection();
      await vi.advanceTimersByTimeAsync(0);
      socket.transportDrops();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(socket.sentEvents('init')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends init again after every reconnect', () => {
    const socket = harness.connectedService(7);
    socket.transportDrops();
    expect(harness.service.status()).toBe('connecting');
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
    expect(socket.handshakeAuth()).toEqual({ token: 'Bearer second-user', protocol: SOCKET_PROTOCOL });
    socket.serverAcceptsConnection();
    expect(socket.sentEvents('init')).toEqual([
      ['init', { id: 7 }],
      ['init', { id: 8 }],
    ]);
  });

  it('reads the stored token at every handshake', () => {
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    expect(socket.handshakeAuth()).toEqual({ token: '', protocol: SOCKET_PROTOCOL });
    storeToken('abc');
    expect(socket.handshakeAuth()).toEqual({ token: 'Bearer abc', protocol: SOCKET_PROTOCOL });
  });

  it('passes every server event on to its listeners, unchanged, until they unsubscribe', () => {
    const socket = harness.connectedService();
    const heard: unknown[] = [];
    const events = ['message_count', 'message', 'followed', 'message_sent', 'follower', 'account_item', 'seen', 'safety_changed', 'user_updated'] as const;
    const stops = events.map((event) => harness.service.on(event, (payload: unknown) => heard.push([event, payload])));
    const followed = { follower_id: 2, followee_id: 7, following: true, followers_count: 1 };
    const read: AccountItem = { seq: 3, conversation_id: 1002, kind: 'read', read_seq: 1, unread_count: 0 };
    const seen: SeenPayload = { conversation_id: 1002, user_id: 2, seq: 1, read_at: '2025-01-01T00:01:00.000Z' };
    socket.serverEmits('message_count', { count: 4 });
    socket.serverEmits('message', message);
    socket.serverEmits('followed', followed);
    socket.serverEmits('message_sent', message);
    socket.serverEmits('follower', followed);
    socket.serverEmits('account_item', read);
    socket.serverEmits('seen', seen);
    socket.serverEmits('safety_changed', { type: 'mute', user_id: 2, muted: true });
    socket.serverEmits('user_updated', { id: 2, username: 'Ada', avatar: null });
    for (const stop of stops) stop();
    socket.serverEmits('message', message);
    expect(heard).toEqual([
      ['message_count', { count: 4 }],
      ['message', message],
      ['followed', followed],
      ['message_sent', message],
      ['follower', followed],
      ['account_item', read],
      ['seen', seen],
      ['safety_changed', { type: 'mute', user_id: 2, muted: true }],
      ['user_updated', { id: 2, username: 'Ada', avatar: null }],
    ]);
  });

  it('a listener that unsubscribes itself does not keep the others from hearing the event', () => {
    const socket = harness.connectedService();
    const second = vi.fn();
    const stop = harness.service.on('message', () => stop());
    harness.service.on('message', second);
    socket.serverEmits('message', message);
    socket.serverEmits('message', message);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('send and follow resolve with the server ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = async (event, payload) => ({ data: { event, payload } });
    const send = { client_id: 'c1', recipient_id: 2, text: 'hi' };
    await expect(harness.service.request('send', send)).resolves.toEqual({ data: { event: 'send', payload: send } });
    await expect(harness.service.request('follow', { user_id: 2, follow: true })).resolves.toEqual({
      data: { event: 'follow', payload: { user_id: 2, follow: true } },
    });
    expect(socket.sentEvents('send')[0]?.[2]).toEqual({ timeout: expect.any(Number) });
  });

  it('turns a timed-out ack into an error ack', async () => {
    const socket = harness.connectedService();
    socket.ackResponder = () => Promise.reject(new Error('operation has timed out'));
    await expect(harness.service.request('send', { client_id: 'c1', recipient_id: 2, text: 'hi' })).resolves.toEqual({
      error: { msg: 'operation has timed out' },
    });
  });

  it('refuses to send before any connection', async () => {
    await expect(harness.service.request('follow', { user_id: 2, follow: true })).resolves.toEqual({
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
    expect(harness.service.status()).toBe('disconnected');
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

  it('reports the connection status through a reconnect to its status listeners', () => {
    const reports: unknown[] = [];
    harness.service.on('status', (status, attempt) => reports.push([status, attempt]));
    harness.service.initSocket(7);
    const socket = harness.lastSocket();
    socket.serverAcceptsConnection();
    socket.transportDrops();
    socket.io.fire('reconnect_attempt', 2);
    expect(harness.service.reconnectAttempt()).toBe(2);
    socket.serverAcceptsConnection();
    expect(reports).toEqual([
      ['connecting', 0],
      ['connected', 0],
      ['connecting', 0],
      ['connecting', 2],
      ['connected', 0],
    ]);
    expect(harness.service.status()).toBe('connected');
  });
});

describe('socket service whose socket code loads later (the app’s: socket.io-client is its own chunk)', () => {
  /** A service whose factory answers with a promise the test settles. */
  function loadingLater() {
    const sockets: FakeSocket[] = [];
    const loads: { resolve: () => void; reject: (error: Error) => void }[] = [];
    const service = createSocketService(
      (url, options) =>
        new Promise<ClientSocket>((resolve, reject) => {
          loads.push({
            resolve: () => {
              const socket = new FakeSocket(url, options);
              sockets.push(socket);
              resolve(socket.asClientSocket());
            },
            reject,
          });
        }),
    );
    return { service, sockets, loads };
  }

  it('is connecting while the code loads, then connects once with the id given last', async () => {
    const { service, sockets, loads } = loadingLater();
    service.initSocket(7);
    service.initSocket(8);
    expect(loads).toHaveLength(1);
    expect(service.status()).toBe('connecting');
    expect(service.userId()).toBe(8);
    loads[0]!.resolve();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    await vi.waitFor(() => expect(sockets[0]!.connectCalls).toBe(1));
    sockets[0]!.serverAcceptsConnection();
    expect(sockets[0]!.sentEvents('init')).toEqual([['init', { id: 8 }]]);
  });

  it('a sign-out while the code loads: the socket is made but never connects', async () => {
    const { service, sockets, loads } = loadingLater();
    service.initSocket(7);
    service.disconnectSocket();
    expect(service.status()).toBe('disconnected');
    loads[0]!.resolve();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    await Promise.resolve();
    expect(sockets[0]!.connectCalls).toBe(0);
    expect(service.status()).toBe('disconnected');
    service.initSocket(9);
    expect(sockets[0]!.connectCalls).toBe(1);
  });

  it('code that fails to load leaves it disconnected, and the next initSocket loads it again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { service, sockets, loads } = loadingLater();
      service.initSocket(7);
      loads[0]!.reject(new Error('Failed to fetch dynamically imported module'));
      await vi.waitFor(() => expect(service.status()).toBe('disconnected'));
      expect(warn).toHaveBeenCalled();
      service.initSocket(7);
      expect(loads).toHaveLength(2);
      loads[1]!.resolve();
      await vi.waitFor(() => expect(sockets[0]?.connectCalls).toBe(1));
    } finally {
      warn.mockRestore();
    }
  });
});
