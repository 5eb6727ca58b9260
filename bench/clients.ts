// Real socket.io-client instances over WebSocket, as the browser app connects: the stored token and
// the socket protocol the app speaks (SOCKET_PROTOCOL, 2) in the handshake's auth (the floor reads
// user_id instead), then `init` and its ack. Every event is then protocol 2's (docs/API.md).
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PROTOCOL, type ConversationSummaryPage } from '../lib/contract';

export interface BenchUser {
  id: number;
  token: string;
}

export interface ConnectOptions {
  /** Server nodes: user i connects to urls[i % urls.length]. */
  urls: readonly string[];
  /** Handshakes in flight at once. */
  concurrency?: number;
  /**
   * Loopback source addresses to spread connections over (127.0.0.2, …): each source address has
   * its own ephemeral ports, so tens of thousands of sockets stay clear of the port range.
   */
  sourceAddresses?: string[];
  /** Called after each socket is ready (init acknowledged). */
  onReady?: (done: number) => void;
  timeoutMs?: number;
}

export interface ConnectedClient {
  user: BenchUser;
  socket: Socket;
  /** Index of the node (ConnectOptions.urls) it is connected to. */
  node: number;
}

/** Loopback addresses 127.0.0.2 … 127.0.0.(n+1). */
export const loopbackSources = (n: number) => Array.from({ length: n }, (_, i) => `127.0.0.${i + 2}`);

export function connectOne(url: string, user: BenchUser, localAddress: string | undefined, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, {
      transports: ['websocket'],
      auth: { token: `Bearer ${user.token}`, protocol: SOCKET_PROTOCOL, user_id: user.id },
      forceNew: true,
      reconnection: false,
      timeout: timeoutMs,
      // engine.io-client hands localAddress to ws (Node's net.connect).
      ...(localAddress ? { localAddress } : {}),
    } as Parameters<typeof io>[1]);
    const fail = (error: Error) => {
      socket.close();
      reject(error);
    };
    socket.once('connect_error', fail);
    socket.once('connect', () => {
      socket.off('connect_error', fail);
      socket
        .timeout(timeoutMs)
        .emitWithAck('init', { id: user.id })
        .then((ack: { data?: unknown; error?: unknown }) => {
          if (ack && 'data' in ack) resolve(socket);
          else fail(new Error(`init refused: ${JSON.stringify(ack)}`));
        }, fail);
    });
  });
}

/** The id of the user's conversation with `peerId`, from their list (GET /api/c): what protocol 2's events name. */
export async function directConversation(url: string, user: BenchUser, peerId: number): Promise<number> {
  const response = await fetch(`${url}/api/c`, { headers: { authorization: `Bearer ${user.token}` } });
  if (!response.ok) throw new Error(`GET /api/c as user ${user.id}: ${response.status} ${await response.text()}`);
  const page = (await response.json()) as ConversationSummaryPage;
  const row = page.results.find((summary) => summary.user?.id === peerId);
  if (!row) throw new Error(`user ${user.id} has no conversation with user ${peerId} on the first page of their list`);
  return row.conversation_id;
}

/** Connects every user (one socket each) with a bounded number of handshakes in flight. */
export async function connectAll(users: BenchUser[], options: ConnectOptions): Promise<ConnectedClient[]> {
  const clients: ConnectedClient[] = new Array(users.length);
  const sources = options.sourceAddresses ?? [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < users.length) {
      const index = next++;
      const user = users[index]!;
      const node = index % options.urls.length;
      const socket = await connectOne(options.urls[node]!, user, sources.length ? sources[index % sources.length] : undefined, options.timeoutMs ?? 30_000);
      clients[index] = { user, socket, node };
      options.onReady?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 50, users.length) }, worker));
  return clients;
}

export function closeAll(clients: ConnectedClient[]): void {
  for (const client of clients) client?.socket.close();
}
