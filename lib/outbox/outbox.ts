// The outbox: every message the user sends waits here (persisted) until the server acknowledges
// it. One message is in flight at a time, oldest first, so a conversation keeps the order it was
// written in. A send that fails for a passing reason (no connection, timeout, server fault, rate
// limit: an ack error with `msg`) is retried with the same client id after a backoff and at every
// reconnect; the server stores a client id once, so a retry never makes a copy. A refusal
// (`non_field_errors`: bad input, unknown recipient) leaves the queue as a failed message.
import type { Ack, ConversationMessage, ErrorBody, SendPayload } from '@/lib/contract';
import type { OutboxEntry, OutboxStorage } from './outbox-storage';

export type { OutboxEntry };

export interface OutboxOptions {
  storage: OutboxStorage;
  /** The `send` request (by recipient: the direct conversation, begun by the first message). */
  send: (payload: SendPayload) => Promise<Ack<ConversationMessage>>;
  /** Whether a send can go out now (connected, init acknowledged). */
  isReady: () => boolean;
  /** The server stored the entry. */
  onSent: (entry: OutboxEntry, message: ConversationMessage) => void;
  /** The server refused the entry for good; it has left the queue. */
  onRefused: (entry: OutboxEntry, error: ErrorBody) => void;
  /** First retry delay; doubles up to maxDelayMs, with ±50% jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  /** Storage failures (IndexedDB unavailable, quota): the queue keeps working in memory. */
  onStorageError?: (error: unknown) => void;
}

export interface Outbox {
  /** Starts the queue for a sender with what storage holds for them; returns those entries. */
  start(senderId: number): Promise<OutboxEntry[]>;
  /** Stops sending (sign-out); what is stored stays for the sender's next session. */
  stop(): void;
  /** Stores the entry, then sends it when its turn comes. */
  enqueue(entry: Omit<OutboxEntry, 'position'>): Promise<void>;
  /** Tries now: after a (re)connect, or when the caller knows the network is back. */
  flush(): void;
  /** Entries waiting, oldest first. */
  pending(): readonly OutboxEntry[];
}

const isRefusal = (error: ErrorBody) => 'non_field_errors' in error && error.non_field_errors !== undefined;

export function createOutbox(options: OutboxOptions): Outbox {
  const { storage, send, isReady, onSent, onRefused, baseDelayMs = 1_000, maxDelayMs = 30_000 } = options;
  const random = options.random ?? Math.random;
  const storageError = options.onStorageError ?? ((error) => console.error('Outbox storage failed', error));
  let queue: OutboxEntry[] = [];
  let senderId: number | null = null;
  let session = 0; // bumped by start/stop: answers for an older session are ignored
  let inFlight = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let lastPosition = 0;

  const persist = (action: () => Promise<void>) => action().catch(storageError);

  function clearRetry(): void {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function scheduleRetry(): void {
    clearRetry();
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(failures - 1, 16));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      flush();
    }, delay * (0.5 + random()));
  }

  async function sendHead(started: number): Promise<void> {
    const entry = queue[0];
    if (!entry) return;
    inFlight = true;
    const ack = await send({
      client_id: entry.client_id,
      recipient_id: entry.recipient_id,
      text: entry.text,
      attachment_id: entry.attachment?.id ?? null,
      reply_to: entry.reply_to?.id ?? null,
    }).catch((error: unknown): Ack<ConversationMessage> => ({ error: { msg: String(error) } }));
    if (started !== session) return; // stopped meanwhile; stop() already reset the queue
    inFlight = false;
    if ('data' in ack || isRefusal(ack.error)) {
      queue = queue.filter((other) => other !== entry);
      await persist(() => storage.remove(entry));
      failures = 0;
      if ('data' in ack) onSent(entry, ack.data);
      else onRefused(entry, ack.error);
      flush();
      return;
    }
    failures += 1;
    scheduleRetry();
  }

  function flush(): void {
    if (senderId === null || inFlight || queue.length === 0) return;
    if (retryTimer !== null) return; // backing off: the timer (or a reconnect) sends
    if (!isReady()) return; // the next connect flushes
    void sendHead(session);
  }

  return {
    async start(id) {
      session += 1;
      senderId = id;
      failures = 0;
      clearRetry();
      const started = session;
      const stored = await storage.load(id).catch((error: unknown) => {
        storageError(error);
        return [] as OutboxEntry[];
      });
      if (started !== session) return [];
      // Entries enqueued while storage was loading are newer: they go after the stored ones.
      const queued = new Set(queue.map((entry) => entry.client_id));
      queue = [...stored.filter((entry) => !queued.has(entry.client_id)), ...queue.filter((entry) => entry.sender_id === id)];
      lastPosition = Math.max(lastPosition, ...queue.map((entry) => entry.position));
      flush();
      return stored;
    },

    stop() {
      session += 1;
      senderId = null;
      queue = [];
      inFlight = false;
      clearRetry();
    },

    async enqueue(fields) {
      // Increasing even if the clock steps back, so the queue order is the order written.
      lastPosition = Math.max(lastPosition + 1, Date.now());
      const entry: OutboxEntry = { ...fields, position: lastPosition };
      queue.push(entry);
      await persist(() => storage.put(entry));
      flush();
    },

    flush() {
      failures = 0;
      clearRetry();
      flush();
    },

    pending: () => queue,
  };
}
