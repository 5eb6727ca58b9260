import { storeMessages, type BatchOutcome } from './message-batch';
import type { NewMessage } from './message-payload';
import type { Db } from './open-database';

/** Messages per transaction: enough to amortise a commit, small enough to keep one batch short. */
export const MAX_BATCH = 256;
/**
 * Sends queued or being written, per process, beyond which new ones are turned away at once (the
 * client's outbox retries them with backoff) instead of piling up without bound.
 */
export const MAX_PENDING_SENDS = 4_000;

export interface MessageWriterOptions {
  maxBatch?: number;
  maxPending?: number;
}

/**
 * What became of one send: stored or refused (storeMessages), or not written now and to be tried
 * again: `busy` (too many pending), `closing` (the writer is closing), `failed` (the database
 * failed on this very message, `error` says why).
 */
export type WriteOutcome = BatchOutcome | { retry: 'busy' | 'closing' } | { retry: 'failed'; error: unknown };

export interface MessageWriter {
  write(message: NewMessage): Promise<WriteOutcome>;
  /** Sends queued or being written now. */
  readonly pending: number;
  /** Stops taking sends and resolves once every one already taken is committed (or answered). */
  close(): Promise<void>;
}

interface Queued {
  message: NewMessage;
  resolve: (outcome: WriteOutcome) => void;
}

/**
 * Group commit: concurrent sends queue here and go to the database in batches, one transaction
 * per batch (storeMessages), one batch at a time per process. While a batch commits the next one
 * accumulates, so batches grow with the load and an idle server writes a lone message after one
 * turn of the event loop (setImmediate: sends that arrived in the same turn go together), with no
 * timer. Every send is answered once its batch has committed.
 *
 * A batch that fails as a whole is retried message by message, so one message the database
 * rejects fails alone and the others are stored as usual.
 */
export function createMessageWriter(db: Db, options: MessageWriterOptions = {}): MessageWriter {
  const maxBatch = options.maxBatch ?? MAX_BATCH;
  const maxPending = options.maxPending ?? MAX_PENDING_SENDS;
  const queue: Queued[] = [];
  let pending = 0;
  let closing = false;
  let draining: Promise<void> | null = null;

  const drain = async () => {
    // Another turn of the event loop first: sends that arrived in this one join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      const outcomes = await writeBatch(db, batch.map((queued) => queued.message));
      pending -= batch.length;
      batch.forEach((queued, index) => queued.resolve(outcomes[index]!));
    }
    // In the same synchronous step as the empty check: a send queued from here on starts a drain.
    draining = null;
  };

  const write = (message: NewMessage): Promise<WriteOutcome> => {
    if (closing) return Promise.resolve({ retry: 'closing' });
    if (pending >= maxPending) return Promise.resolve({ retry: 'busy' });
    pending += 1;
    const outcome = new Promise<WriteOutcome>((resolve) => queue.push({ message, resolve }));
    draining ??= drain();
    return outcome;
  };

  return {
    write,
    get pending() {
      return pending;
    },
    close: async () => {
      closing = true;
      while (draining) await draining;
    },
  };
}

async function writeBatch(db: Db, messages: NewMessage[]): Promise<WriteOutcome[]> {
  try {
    return await storeMessages(db, messages);
  } catch (error) {
    if (messages.length === 1) return [{ retry: 'failed', error }];
  }
  const outcomes: WriteOutcome[] = [];
  for (const message of messages) outcomes.push(...(await writeBatch(db, [message])));
  return outcomes;
}
