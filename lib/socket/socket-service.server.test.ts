// The service against a real in-process Socket.IO server, so the library's own reconnection
// (not a fake's) is what re-sends init.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  OUTDATED_CLIENT_MSG,
  SOCKET_PROTOCOL,
  type ClientToServerEvents,
  type InitPayload,
  type ProtocolRefusal,
  type ServerToClientEvents,
} from '@/lib/contract';
import { storeToken } from '@/lib/session/storage';
import { conversationMessage } from '@/lib/testing/fixtures';
import { createSocketService, type SocketService } from './socket-service';

type ParleyServerSocket = ServerSocket<ClientToServerEvents, ServerToClientEvents>;

const message = conversationMessage(1);

let httpServer: HttpServer;
let ioServer: Server<ClientToServerEvents, ServerToClientEvents>;
let service: SocketService;
let inits: InitPayload[];
let handshakeTokens: unknown[];
let handshakeProtocols: unknown[];
let connections: ParleyServerSocket[];

function latestConnection(): ParleyServerSocket {
  const connection = connections.at(-1);
  if (!connection) throw new Error('nobody connected');
  return connection;
}

beforeEach(async () => {
  localStorage.clear();
  inits = [];
  handshakeTokens = [];
  handshakeProtocols = [];
  connections = [];

  httpServer = createServer();
  ioServer = new Server(httpServer);
  ioServer.on('connection', (socket) => {
    handshakeTokens.push((socket.handshake.auth as { token?: unknown }).token);
    handshakeProtocols.push((socket.handshake.auth as { protocol?: unknown }).protocol);
    connections.push(socket);
    socket.on('init', (payload) => inits.push(payload));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  // Only the address differs from production; the options are the service's own.
  service = createSocketService((_url, options) => io(url, { ...options, forceNew: true }));
});

afterEach(async () => {
  service.disconnectSocket();
  await ioServer.close();
});

describe('socket service against a Socket.IO server', () => {
  it('sends init with the id, and again after the connection drops and comes back', async () => {
    storeToken('abc');
    service.initSocket(42);

    await vi.waitFor(() => expect(inits).toEqual([{ id: 42 }]));
    expect(handshakeTokens).toEqual(['Bearer abc']);
    expect(handshakeProtocols).toEqual([SOCKET_PROTOCOL]);
    expect(service.status()).toBe('connected');

    // A dropped transport (not a deliberate server kick) is what the client reconnects after.
    storeToken('rotated');
    latestConnection().conn.close();
    await vi.waitFor(() => expect(service.status()).toBe('connecting'));
    await vi.waitFor(() => expect(inits).toEqual([{ id: 42 }, { id: 42 }]), { timeout: 4_000 });
    expect(handshakeTokens).toEqual(['Bearer abc', 'Bearer rotated']);
    expect(connections).toHaveLength(2);
  });

  it('passes message_count, message and followed on to its listeners', async () => {
    const heard: unknown[] = [];
    service.on('message_count', (payload) => heard.push(['message_count', payload]));
    service.on('message', (payload) => heard.push(['message', payload]));
    service.on('followed', (payload) => heard.push(['followed', payload]));
    service.initSocket(42);
    await vi.waitFor(() => expect(inits).toHaveLength(1));
    const server = latestConnection();
    const followed = { follower_id: 2, followee_id: 42, following: true, followers_count: 1 };
    server.emit('message_count', { count: 5 });
    server.emit('message', message);
    server.emit('followed', followed);
    await vi.waitFor(() =>
      expect(heard).toEqual([
        ['message_count', { count: 5 }],
        ['message', message],
        ['followed', followed],
      ]),
    );
  });

  it('resolves send with the server acknowledgement', async () => {
    ioServer.on('connection', (socket) => {
      socket.on('send', ({ client_id, text }, ack) => ack?.({ data: { ...message, client_id, text } }));
    });
    service.initSocket(42);
    await vi.waitFor(() => expect(inits).toHaveLength(1));
    const ack = await service.request('send', { client_id: 'c9', recipient_id: 2, text: 'yo' });
    expect(ack).toEqual({ data: { ...message, client_id: 'c9', text: 'yo' } });
  });

  describe('a server that no longer serves its protocol', () => {
    // As server/realtime/handshake.ts refuses it: the message, and the protocols served as data.
    const refuseProtocol = () =>
      ioServer.use((_socket, next) => next(Object.assign(new Error(OUTDATED_CLIENT_MSG), { data: { protocols: [SOCKET_PROTOCOL + 1] } satisfies ProtocolRefusal })));

    it('reloads the page for the new client, and stops knocking', async () => {
      refuseProtocol();
      const reload = vi.fn(() => true);
      service = createSocketService((_url, options) => io(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, { ...options, forceNew: true }), { reloadForNewClient: reload });
      storeToken('abc');
      service.initSocket(42);
      await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
      // No reconnection after it: a refused protocol is refused every time.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(reload).toHaveBeenCalledTimes(1);
      expect(inits).toEqual([]);
      expect(service.status()).toBe('disconnected');
    });

    it('says the page is out of date when it has just reloaded for that already', async () => {
      refuseProtocol();
      service = createSocketService((_url, options) => io(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, { ...options, forceNew: true }), { reloadForNewClient: () => false });
      service.initSocket(42);
      await vi.waitFor(() => expect(service.status()).toBe('outdated'));
    });
  });

  it('a refusal for another reason is not a reason to reload', async () => {
    ioServer.use((_socket, next) => next(new Error('Unauthorized')));
    const reload = vi.fn(() => true);
    service = createSocketService((_url, options) => io(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, { ...options, forceNew: true }), { reloadForNewClient: reload });
    service.initSocket(42);
    await vi.waitFor(() => expect(service.status()).toBe('disconnected'));
    expect(reload).not.toHaveBeenCalled();
  });
});
