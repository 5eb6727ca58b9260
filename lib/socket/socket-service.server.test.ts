// The service against a real in-process Socket.IO server, so the library's own reconnection
// (not a fake's) is what re-sends init.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ClientToServerEvents,
  InitPayload,
  MessagePayload,
  ServerToClientEvents,
} from '@/lib/contract';
import { storeToken } from '@/lib/session/storage';
import { createSocketService, type SocketService } from './socket-service';

type ParleyServerSocket = ServerSocket<ClientToServerEvents, ServerToClientEvents>;

const message: MessagePayload = {
  id: 1,
  client_id: 'c1',
  sender_id: 2,
  recipient_id: 42,
  text: 'hello',
  created_at: '2025-01-01T00:00:00.000Z',
  read_at: null,
  attachment: null,
  seq: 1,
  edited_at: null,
  deleted: false,
  reactions: [],
  version: 1,
};

let httpServer: HttpServer;
let ioServer: Server<ClientToServerEvents, ServerToClientEvents>;
let service: SocketService;
let inits: InitPayload[];
let handshakeTokens: unknown[];
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
  connections = [];

  httpServer = createServer();
  ioServer = new Server(httpServer);
  ioServer.on('connection', (socket) => {
    handshakeTokens.push((socket.handshake.auth as { token?: unknown }).token);
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
      socket.on('send', ({ client_id, recipient_id, text }, ack) => ack?.({ data: { ...message, client_id, recipient_id, text } }));
    });
    service.initSocket(42);
    await vi.waitFor(() => expect(inits).toHaveLength(1));
    const ack = await service.request('send', { client_id: 'c9', recipient_id: 2, text: 'yo' });
    expect(ack).toEqual({ data: { ...message, client_id: 'c9', recipient_id: 2, text: 'yo' } });
  });
});
