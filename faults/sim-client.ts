// One simulated user: a real socket.io-client speaking the delivery protocol (docs/DELIVERY.md).
// Outbox: FIFO, one send in flight, each message keeps its client_id until acknowledged.
// Every connection: init (await ack) → sync from the highest contiguous seq → resume the outbox.
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, MessageChange, MessagePayload, ServerToClientEvents } from '../lib/contract';
import { Inbox } from './inbox';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** What the ack of a client event carries. */
type AckOf<E extends keyof ClientToServerEvents> = Parameters<NonNullable<Parameters<ClientToServerEvents[E]>[1]>>[0];

export interface OutboxEntry {
  clientId: string;
  recipientId: number;
  text: string;
  enqueuedAt: number;
  attempts: number;
  /** Date.now() when the last attempt went out: a retry of a row stored before it was a lost ack. */
  lastAttemptAt?: number;
  /** The server's answer: the stored message, with the sender's seq. */
  acked?: MessagePayload;
  ackedAt?: number;
  /** A permanent refusal (non_field_errors): the message is given up. */
  refused?: string;
}

export interface ConnectionRecord {
  connectedAt: number;
  /** When this connection's catch-up sync finished (server said has_more: false). */
  syncedAt?: number;
}

export interface SimClientOptions {
  url: string;
  user: { id: number; token: string };
  /** How long a send, init or sync waits for its ack before it counts as failed. */
  ackTimeoutMs?: number;
  /** A gap must last this long before it triggers a sync: events may simply be out of order. */
  gapGraceMs?: number;
  /** The clock the records use (the test's). */
  now?: () => number;
  /** Connection events, one line each (FAULTS_DEBUG=1). */
  debug?: (line: string) => void;
}

const SYNC_PAGE = 200;
const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (failures: number) =>
  Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2);

export class SimClient {
  readonly userId: number;
  readonly inbox: Inbox;
  /** Every message this user wrote, in the order written (acked or not). */
  readonly written: OutboxEntry[] = [];
  readonly connections: ConnectionRecord[] = [];
  /** Protocol problems seen on the wire; the inbox keeps its own. */
  readonly anomalies: string[] = [];
  readonly stats = {
    attempts: 0,
    retries: 0,
    transientErrors: 0,
    timeouts: 0,
    refused: 0,
    syncRequests: 0,
    gapSyncs: 0,
    drops: 0,
    changes: 0,
  };

  private readonly socket: ClientSocket;
  private readonly outbox: OutboxEntry[] = [];
  private readonly ackTimeoutMs: number;
  private readonly gapGraceMs: number;
  private readonly now: () => number;
  /** Counts connections; work started for one stops when the next begins. */
  private epoch = 0;
  private ready = false;
  private readyWaiters: (() => void)[] = [];
  private pumping = false;
  private sending = false;
  private syncRun: { epoch: number; again: boolean; done: Promise<boolean> } | null = null;
  private gapTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: SimClientOptions) {
    this.userId = options.user.id;
    this.now = options.now ?? Date.now;
    this.inbox = new Inbox(options.user.id, this.now);
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.gapGraceMs = options.gapGraceMs ?? 300;
    this.socket = io(options.url, {
      transports: ['websocket'],
      auth: { token: `Bearer ${options.user.token}` },
      forceNew: true,
      autoConnect: false,
      // Faster than the defaults (1 s doubling to 5 s): the test measures the server's recovery and
      // the protocol, not a backoff curve; 50 clients retrying ≤ 4×/s are no load at all.
      reconnectionDelay: 250,
      reconnectionDelayMax: 1_000,
    });
    const debug = options.debug;
    if (debug) {
      const say = (...words: unknown[]) => debug(`${Math.round(this.now())} user ${this.userId}: ${words.join(' ')}`);
      this.socket.on('connect', () => say('connect'));
      this.socket.on('disconnect', (reason) => say('disconnect', reason));
      this.socket.on('connect_error', (error) => say('connect_error', error.message));
      this.socket.io.on('reconnect_attempt', (attempt) => say('reconnect attempt', attempt));
    }
    this.socket.on('connect', () => void this.onConnect());
    this.socket.on('disconnect', () => this.setReady(false));
    // A refusal by the server's middleware (e.g. a handshake failing while it starts) is final for
    // socket.io-client; a browser tab would try again, so does this one.
    this.socket.on('connect_error', () => {
      if (!this.socket.active && !this.closed) setTimeout(() => !this.closed && this.socket.connect(), 500);
    });
    this.socket.on('message', (message) => this.receive(message));
    this.socket.on('message_sent', (message) => this.receive(message));
    this.socket.on('message_change', (change) => this.receiveChange(change));
  }

  connect(): void {
    this.socket.connect();
  }

  /** Queues a message; it is sent after every earlier one is acknowledged. */
  write(recipientId: number, text: string): OutboxEntry {
    const entry: OutboxEntry = { clientId: randomUUID(), recipientId, text, enqueuedAt: this.now(), attempts: 0 };
    this.written.push(entry);
    this.outbox.push(entry);
    void this.pump();
    return entry;
  }

  get pending(): number {
    return this.outbox.length;
  }

  /** A send is waiting for its ack. */
  get isSending(): boolean {
    return this.sending;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Resolves once initialised and caught up on the current connection. */
  whenReady(): Promise<void> {
    if (this.ready || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * Cuts the TCP connection under the WebSocket, as a network drop would: no close frame, no
   * socket.io disconnect packet. The client notices at once and reconnects with its usual backoff.
   */
  drop(): void {
    const transport = this.socket.io.engine?.transport as unknown as { ws?: { _socket?: { destroy(): void } } };
    const raw = transport?.ws?._socket;
    if (raw) raw.destroy();
    else this.socket.io.engine?.close();
    this.stats.drops++;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.gapTimer);
    this.socket.disconnect();
    this.setReady(false);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private setReady(ready: boolean): void {
    this.ready = ready;
    if (ready) for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private current(epoch: number): boolean {
    return epoch === this.epoch && this.socket.connected && !this.closed;
  }

  private async onConnect(): Promise<void> {
    const epoch = ++this.epoch;
    const record: ConnectionRecord = { connectedAt: this.now() };
    this.connections.push(record);
    for (let failures = 1; ; failures++) {
      if (!this.current(epoch)) return;
      const ack = await this.request('init', { id: this.userId });
      if (ack && 'data' in ack) break;
      if (ack && 'non_field_errors' in ack.error) this.anomalies.push(`init refused: ${JSON.stringify(ack.error)}`);
      else if (ack) this.stats.transientErrors++;
      await delay(backoff(failures));
    }
    if (!(await this.sync(epoch))) return;
    record.syncedAt = this.now();
    this.setReady(true);
    void this.pump();
  }

  private receive(message: MessagePayload): void {
    this.inbox.add(message);
    if (this.inbox.hasGap) this.scheduleGapSync();
  }

  private receiveChange(change: MessageChange): void {
    this.inbox.addChange(change);
    if (this.inbox.hasGap) this.scheduleGapSync();
  }

  /**
   * A change to a message (react, edit, unsend) or a read, once, while connected: its ack's change
   * is held like a live one. Refusals (a message unsent meanwhile, a window over) are normal here;
   * a lost ack is too: whichever happened, the stream tells every client.
   */
  async change(event: 'react' | 'edit' | 'unsend' | 'read', payload: Record<string, unknown>): Promise<void> {
    if (!this.ready) return;
    this.stats.changes++;
    const ack = (await this.request(event, payload as never)) as { data?: { change?: MessageChange | null } } | null;
    if (ack?.data?.change) this.receiveChange(ack.data.change);
  }

  /** Asks for everything after the cursor, as every (re)connect does: a last live item lost is found so. */
  async syncNow(): Promise<boolean> {
    return this.sync(this.epoch);
  }

  /** A gap that outlives the grace period means a lost event: fetch what is missing. */
  private scheduleGapSync(): void {
    if (this.gapTimer) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      if (!this.inbox.hasGap || !this.ready) return;
      this.stats.gapSyncs++;
      void this.sync(this.epoch);
    }, this.gapGraceMs);
  }

  /** One catch-up per connection at a time; a request during one runs it again afterwards. */
  private sync(epoch: number): Promise<boolean> {
    if (this.syncRun?.epoch === epoch) {
      this.syncRun.again = true;
      return this.syncRun.done;
    }
    const run = { epoch, again: false, done: Promise.resolve(false) };
    run.done = (async () => {
      let ok: boolean;
      do {
        run.again = false;
        ok = await this.syncPages(epoch);
      } while (ok && run.again);
      if (this.syncRun === run) this.syncRun = null;
      if (ok && this.inbox.hasGap) this.scheduleGapSync();
      return ok;
    })();
    this.syncRun = run;
    return run.done;
  }

  /** Pages of `sync` from the contiguous high-water mark; false when the connection ended. */
  private async syncPages(epoch: number): Promise<boolean> {
    let after = this.inbox.contiguous;
    for (let failures = 0; ; ) {
      if (!this.current(epoch)) return false;
      this.stats.syncRequests++;
      const ack = await this.request('sync', { after, limit: SYNC_PAGE });
      if (!ack || 'error' in ack) {
        if (ack) this.stats.transientErrors++;
        await delay(backoff(++failures));
        continue;
      }
      failures = 0;
      const { messages, changes, through, last_seq: lastSeq, has_more: hasMore } = ack.data;
      for (const message of messages) this.inbox.add(message, 'sync');
      for (const change of changes) this.inbox.addChange(change);
      this.inbox.accountThrough(through);
      if (hasMore) {
        if (through <= after) {
          this.anomalies.push(`sync after ${after}: has_more without moving on (through ${through})`);
          return true;
        }
        after = through;
        continue;
      }
      // last_seq is promised to be a safe place to resume from: nothing at or below it is missing.
      if (this.inbox.contiguous < lastSeq) {
        this.anomalies.push(`sync after ${after} answered last_seq ${lastSeq} but seq ${this.inbox.contiguous + 1} is missing`);
      }
      return true;
    }
  }

  /** Sends the outbox head until acknowledged, then the next; waits while not ready. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let failures = 0; !this.closed && this.outbox.length > 0; ) {
        if (!this.ready) {
          await this.whenReady();
          continue;
        }
        const entry = this.outbox[0]!;
        entry.attempts++;
        entry.lastAttemptAt = Date.now();
        this.stats.attempts++;
        if (entry.attempts > 1) this.stats.retries++;
        this.sending = true;
        const ack = await this.request('send', {
          client_id: entry.clientId,
          recipient_id: entry.recipientId,
          text: entry.text,
          attachment_id: null,
        }).finally(() => (this.sending = false));
        if (ack && 'data' in ack) {
          entry.acked = ack.data;
          entry.ackedAt = this.now();
          this.outbox.shift();
          this.receive(ack.data);
          failures = 0;
          continue;
        }
        if (ack && 'non_field_errors' in ack.error) {
          entry.refused = JSON.stringify(ack.error);
          this.stats.refused++;
          this.outbox.shift();
          continue;
        }
        // A server fault, a rate limit, a timeout or a lost connection: same client_id, later.
        if (ack) this.stats.transientErrors++;
        else if (this.socket.connected) this.stats.timeouts++;
        await delay(backoff(++failures));
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Emits only on a live connection: socket.io-client would otherwise buffer the packet and send it
   * on the next connection ahead of init. Null when no ack came (timeout or disconnect).
   */
  private async request<E extends 'init' | 'send' | 'sync' | 'react' | 'edit' | 'unsend' | 'read'>(
    event: E,
    payload: Parameters<ClientToServerEvents[E]>[0],
  ): Promise<AckOf<E> | null> {
    if (!this.socket.connected) return null;
    try {
      // Untyped for the call: TypeScript cannot pick the overload for a generic event name.
      const socket = this.socket as unknown as Socket;
      return (await socket.timeout(this.ackTimeoutMs).emitWithAck(event, payload)) as AckOf<E>;
    } catch {
      return null;
    }
  }
}

/**
 * Every outbox empty, every client ready with no gap, and each holding at least as many messages
 * as the acks say were written to or by it: nothing acknowledged is still on its way.
 */
export function allCaughtUp(clients: SimClient[]): boolean {
  if (clients.some((client) => client.pending > 0 || !client.isReady || client.inbox.hasGap)) return false;
  const expected = new Map(clients.map((client) => [client.userId, 0]));
  for (const client of clients) {
    for (const entry of client.written) {
      if (!entry.acked) continue;
      expected.set(client.userId, (expected.get(client.userId) ?? 0) + 1);
      expected.set(entry.recipientId, (expected.get(entry.recipientId) ?? 0) + 1);
    }
  }
  return clients.every((client) => client.inbox.contiguous >= expected.get(client.userId)!);
}
