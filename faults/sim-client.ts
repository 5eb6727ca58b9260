// One simulated user: a real socket.io-client speaking the delivery protocol (docs/DELIVERY.md) in
// socket protocol 2, the app's (each conversation's seqs: docs/API.md, "Protocol 2's pushes").
// Outbox: FIFO, one send in flight, each message keeps its client_id until acknowledged. Every
// connection: init (await ack) → catch up (`sync_account` from its cursor, then `sync_conversation`
// for each conversation behind) → resume the outbox.
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PROTOCOL, type ClientToServerEvents, type ConversationMessage, type HandshakeAuth, type ServerToClientEvents } from '../lib/contract';
import type { ConversationInbox } from './conversation-inbox';
import { ConversationProtocol, type Ask } from './conversation-protocol';

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
  /** The server's answer: the stored message, at its conversation's seq. */
  acked?: ConversationMessage;
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

const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (failures: number) =>
  Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2);

export class SimClient {
  readonly userId: number;
  /** What it holds and how it catches up. */
  readonly speaks: ConversationProtocol;
  /** Every message this user wrote, in the order written (acked or not). */
  readonly written: OutboxEntry[] = [];
  readonly connections: ConnectionRecord[] = [];
  /** Every whole catch-up that finished (a connect's, a final one): when it was asked and when it was done. */
  readonly catchUps: { askedAt: number; doneAt: number }[] = [];
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
    /** Catch-ups asked by the harness of a client that was idle, gapless and still missing a message. */
    idleCatchUps: 0,
  };

  private readonly socket: ClientSocket;
  private readonly url: string;
  private readonly token: string;
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
  /** The catch-up running on a connection; `full` asks for a whole one, not only gap fills. */
  private syncRun: { epoch: number; again: boolean; full: boolean; done: Promise<boolean> } | null = null;
  private gapTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the harness last asked this client to catch up while idle (the test's clock). */
  lastIdleCatchUpAt = -Infinity;

  constructor(options: SimClientOptions) {
    this.userId = options.user.id;
    this.url = options.url;
    this.token = options.user.token;
    this.now = options.now ?? Date.now;
    this.speaks = new ConversationProtocol(this.userId, this.now, this.anomalies);
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.gapGraceMs = options.gapGraceMs ?? 300;
    this.socket = io(options.url, {
      transports: ['websocket'],
      auth: { token: `Bearer ${options.user.token}`, protocol: SOCKET_PROTOCOL } satisfies HandshakeAuth,
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
    this.speaks.listen(this.socket, () => this.heard());
  }

  /** Its conversations, and its account's own items. */
  get inbox(): ConversationInbox {
    return this.speaks.inbox;
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

  /** Every message held. */
  held(): ConversationMessage[] {
    return this.inbox.messages();
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
    if (!(await this.sync(epoch, true))) return;
    record.syncedAt = this.now();
    this.setReady(true);
    void this.pump();
  }

  /** Something held since: a seq skipped opens a gap. */
  private heard(): void {
    if (this.inbox.hasGap) this.scheduleGapSync();
  }

  /**
   * A change to a message (react, edit, unsend), once, while connected: its ack's change is held
   * with the pushed ones. Refusals (a message unsent meanwhile, a window over) are normal here; a
   * lost ack is too: whichever happened, the stream tells every client.
   */
  async change(event: 'react' | 'edit' | 'unsend', payload: Record<string, unknown>): Promise<void> {
    if (!this.ready) return;
    this.stats.changes++;
    const ack = await this.request(event, payload as never);
    if (ack && 'data' in ack && ack.data.change) this.speaks.holdAck(ack.data.change);
    this.heard();
  }

  /** Reads the conversation a held message is in, all of it, as opening it would. */
  async read(message: ConversationMessage): Promise<void> {
    if (!this.ready) return;
    this.stats.changes++;
    await this.request('read', this.speaks.readPayload(message));
  }

  /** Asks for everything after the cursor, as every (re)connect does: a last live item lost is found so. */
  async syncNow(): Promise<boolean> {
    return this.sync(this.epoch, true);
  }

  /**
   * Reads the receipts of the conversations where one of its messages shows no "Seen" yet, as
   * opening each thread would (no catch-up read carries receipts).
   */
  async readReceipts(): Promise<void> {
    await this.speaks.readReceipts(this.url, this.token);
  }

  /** A gap that outlives the grace period means a lost event: fetch what is missing. */
  private scheduleGapSync(): void {
    if (this.gapTimer) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      if (!this.inbox.hasGap || !this.ready) return;
      this.stats.gapSyncs++;
      void this.sync(this.epoch, this.speaks.gapNeedsFull);
    }, this.gapGraceMs);
  }

  /**
   * One catch-up per connection at a time; a request during one runs it again afterwards (whole if
   * either asked for a whole one).
   */
  private sync(epoch: number, full: boolean): Promise<boolean> {
    if (this.syncRun?.epoch === epoch) {
      this.syncRun.again = true;
      this.syncRun.full ||= full;
      return this.syncRun.done;
    }
    const run = { epoch, again: false, full, done: Promise.resolve(false) };
    run.done = (async () => {
      let ok: boolean;
      do {
        const whole = run.full;
        run.again = false;
        run.full = false;
        const askedAt = this.now();
        ok = await (whole ? this.speaks.full(this.asker(epoch)) : this.speaks.fillGaps(this.asker(epoch)));
        if (ok && whole) this.catchUps.push({ askedAt, doneAt: this.now() });
      } while (ok && run.again);
      if (this.syncRun === run) this.syncRun = null;
      if (ok && this.inbox.hasGap) this.scheduleGapSync();
      return ok;
    })();
    this.syncRun = run;
    return run.done;
  }

  /** The catch-up's questions on this connection, each asked again (with backoff) until answered. */
  private asker(epoch: number): Ask {
    return (async (event: 'sync_account' | 'sync_conversation', payload: unknown) => {
      for (let failures = 0; ; ) {
        if (!this.current(epoch)) return null;
        this.stats.syncRequests++;
        const ack = (await this.request(event, payload as never)) as { data: unknown } | { error: Record<string, unknown> } | null;
        if (ack && 'data' in ack) return ack.data;
        if (ack && 'non_field_errors' in ack.error) {
          this.anomalies.push(`${event} ${JSON.stringify(payload)} refused: ${JSON.stringify(ack.error)}`);
          return null;
        }
        if (ack) this.stats.transientErrors++;
        await delay(backoff(++failures));
      }
    }) as Ask;
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
        // By the person, as the app's outbox sends: the first message begins the conversation.
        const payload = { client_id: entry.clientId, recipient_id: entry.recipientId, text: entry.text, attachment_id: null };
        const ack = await this.request('send', payload).finally(() => (this.sending = false));
        if (ack && 'data' in ack) {
          entry.acked = ack.data;
          entry.ackedAt = this.now();
          this.outbox.shift();
          this.speaks.hold(ack.data);
          this.heard();
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
  private async request<E extends 'init' | 'send' | 'read' | 'sync_account' | 'sync_conversation' | 'react' | 'edit' | 'unsend'>(
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
