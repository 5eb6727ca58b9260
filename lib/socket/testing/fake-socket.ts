// A stand-in for socket.io-client's Socket, just enough of it for the service. It models the
// parts whose behaviour the service depends on: emits made while disconnected are buffered and
// flushed on connect (as the real client does), and the Manager fires its own events.
import type { ClientSocket, SocketOptionsInput } from '../socket-service';
import type { AccountSyncResult, ConversationSyncResult, SyncAccountPayload, SyncConversationPayload } from '@/lib/contract';

type Handler = (...args: unknown[]) => void;

class Emitter {
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: string, handler: Handler): this {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler);
    this.handlers.set(event, set);
    return this;
  }

  fire(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
}

export type AckResponder = (event: string, payload: unknown) => Promise<unknown>;

/**
 * What the fake server answers by default, in each event's own shape: init echoes its payload,
 * sync has nothing new, presence_subscribe shows no one; anything else echoes its payload.
 */
export const defaultAck: AckResponder = async (event, payload) => {
  // Catch-up finds that nothing moved: the account's answer keeps its cursor, a conversation's ends where it was asked from.
  if (event === 'sync_account') {
    const { cursor } = payload as SyncAccountPayload;
    return { data: { items: [], conversations: [], removed: [], cursor: cursor ?? '0.0.0.0', has_more: false } satisfies AccountSyncResult };
  }
  if (event === 'sync_conversation') {
    const { conversation_id: id, after } = payload as SyncConversationPayload;
    return { data: { conversation_id: id, messages: [], changes: [], through: after, last_seq: after, has_more: false, seen: [] } satisfies ConversationSyncResult };
  }
  if (event === 'presence_subscribe') return { data: { presence: [] } };
  return { data: payload ?? null };
};

export class FakeSocket extends Emitter {
  connected = false;
  active = false;
  sendBuffer: unknown[][] = [];
  /** What the server actually received, in order. */
  readonly sent: unknown[][] = [];
  readonly io = new Emitter();
  connectCalls = 0;
  /**
   * How the fake server answers acks; by default every event succeeds (defaultAck). A test that
   * answers one event its own way passes the others to defaultAck.
   */
  ackResponder: AckResponder = defaultAck;

  constructor(
    readonly url: string | undefined,
    readonly options: SocketOptionsInput,
  ) {
    super();
  }

  connect(): this {
    this.connectCalls += 1;
    this.active = true;
    return this;
  }

  disconnect(): this {
    const wasConnected = this.connected;
    this.active = false;
    this.connected = false;
    if (wasConnected) this.fire('disconnect', 'io client disconnect');
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    if (this.connected) this.deliver([event, ...args]);
    else this.sendBuffer.push([event, ...args]);
    return this;
  }

  /** The server receives a packet; a trailing callback is its ack, answered by ackResponder. */
  private deliver(packet: unknown[]): void {
    const callback = packet.at(-1);
    if (typeof callback !== 'function') return void this.sent.push(packet);
    const [event, ...args] = packet.slice(0, -1);
    this.sent.push([event, ...args]);
    void this.ackResponder(event as string, args[0]).then((response) => callback(response));
  }

  timeout(ms: number) {
    return {
      emitWithAck: (event: string, payload: unknown) => {
        this.sent.push([event, payload, { timeout: ms }]);
        return this.ackResponder(event, payload);
      },
    };
  }

  /** Runs the handshake's auth callback the way the client does at every (re)connect. */
  handshakeAuth(): unknown {
    let auth: unknown;
    const option = this.options.auth;
    if (typeof option === 'function') option((data) => (auth = data));
    return auth;
  }

  serverAcceptsConnection(): void {
    this.connected = true;
    this.active = true;
    const buffered = this.sendBuffer;
    this.sendBuffer = [];
    for (const packet of buffered) this.deliver(packet);
    this.fire('connect');
  }

  transportDrops(): void {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }

  managerReconnects(attempt = 1): void {
    this.io.fire('reconnect_attempt', attempt);
    this.io.fire('reconnect', attempt);
    this.serverAcceptsConnection();
  }

  serverEmits(event: string, payload?: unknown): void {
    this.fire(event, payload);
  }

  sentEvents(name: string): unknown[][] {
    return this.sent.filter(([event]) => event === name);
  }

  asClientSocket(): ClientSocket {
    return this as unknown as ClientSocket;
  }
}
