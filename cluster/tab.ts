// One browser tab, reduced to its socket: connected to one chosen node, initialised, and keeping
// every event it receives so a test can count them by id (each event once per tab).
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PROTOCOL, type Ack, type ClientToServerEvents, type ServerToClientEvents } from '../lib/contract';
import { waitUntil } from '../testing/wait';

type EventName = keyof ServerToClientEvents;
type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];
/** What the ack of a client event carries. */
type AckOf<E extends keyof ClientToServerEvents> = Parameters<NonNullable<Parameters<ClientToServerEvents[E]>[1]>>[0];

const CONNECT_TIMEOUT_MS = 15_000;
const ACK_TIMEOUT_MS = 10_000;

export interface SeededSession {
  id: number;
  token: string;
}

export class Tab {
  readonly events: { name: string; payload: unknown; at: number }[] = [];
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;

  constructor(
    /** For failure messages: "alice on A". */
    readonly label: string,
    readonly url: string,
    readonly user: SeededSession,
  ) {
    this.socket = io(url, {
      transports: ['websocket'],
      auth: { token: `Bearer ${user.token}`, protocol: SOCKET_PROTOCOL },
      forceNew: true,
      autoConnect: false,
      // A tab that lost its node is a failure here; the failover test uses SimClient.
      reconnection: false,
    });
    this.socket.onAny((name: string, payload: unknown) => this.events.push({ name, payload, at: Date.now() }));
  }

  /** Connects and sends init; resolves once init is acknowledged (the tab is in its user room). */
  async open(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label}: no connection within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      this.socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.once('connect_error', (error) => {
        clearTimeout(timer);
        reject(new Error(`${this.label}: ${error.message}`));
      });
      this.socket.connect();
    });
    const ack = await this.request('init', { id: this.user.id });
    if (!('data' in ack)) throw new Error(`${this.label}: init refused ${JSON.stringify(ack.error)}`);
    return this;
  }

  /** Emits and waits for the ack (which may be an error ack: the caller asserts on it). */
  async request<E extends keyof ClientToServerEvents>(event: E, payload: Parameters<ClientToServerEvents[E]>[0]): Promise<AckOf<E>> {
    // Untyped for the call: TypeScript cannot pick the overload for a generic event name.
    const socket = this.socket as unknown as Socket;
    return (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as AckOf<E>;
  }

  /** The data of a successful ack, or a failure naming the error. */
  async call<E extends keyof ClientToServerEvents>(event: E, payload: Parameters<ClientToServerEvents[E]>[0]) {
    const ack = (await this.request(event, payload)) as Ack<unknown>;
    if (!('data' in ack)) throw new Error(`${this.label}: ${event} refused ${JSON.stringify(ack.error)}`);
    return ack.data as AckOf<E> extends Ack<infer T> ? T : never;
  }

  /** Every payload of `name` received so far, in order. */
  received<E extends EventName>(name: E, matching: (payload: PayloadOf<E>) => boolean = () => true): PayloadOf<E>[] {
    return this.events.filter((event) => event.name === name).map((event) => event.payload as PayloadOf<E>).filter(matching);
  }

  /** Resolves once an event `name` matching arrived (already or later); fails after timeoutMs. */
  async waitFor<E extends EventName>(name: E, matching: (payload: PayloadOf<E>) => boolean, timeoutMs: number): Promise<PayloadOf<E>> {
    await waitUntil(() => this.received(name, matching).length > 0, {
      timeoutMs,
      what: `${this.label} receives ${name}`,
      detail: () => `${this.label} received: ${this.events.map((event) => `${event.name} ${JSON.stringify(event.payload)}`).join('; ')}`,
    });
    return this.received(name, matching)[0]!;
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** GET an /api path on one node as a seeded user; the parsed JSON body (non-2xx fails). */
export async function getJson<T>(nodeUrl: string, user: SeededSession, apiPath: string): Promise<T> {
  const response = await fetch(`${nodeUrl}/api${apiPath}`, { headers: { authorization: `Bearer ${user.token}` } });
  if (!response.ok) throw new Error(`GET ${apiPath} on ${nodeUrl}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
