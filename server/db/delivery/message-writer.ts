import { createGroupWriter, type GroupOutcome, type GroupWriter, type WriterLimits } from '../engine/group-writer';
import { storeMessages, type BatchOutcome } from './message-batch';
import type { NewMessage } from './message-payload';
import type { Db } from '../engine/open-database';

/** Messages per transaction: enough to amortise a commit, small enough to keep one batch short. */
const MAX_BATCH = 256;
/**
 * Sends queued or being written, per process, beyond which new ones are turned away at once (the
 * client's outbox retries them with backoff) instead of piling up without bound.
 */
const MAX_PENDING_SENDS = 4_000;

/** What became of one send: stored or refused (storeMessages), or not written now and to be tried again. */
export type WriteOutcome = GroupOutcome<BatchOutcome>;

export type MessageWriter = GroupWriter<NewMessage, BatchOutcome>;

/**
 * The group commit of `send` (group-writer.ts): concurrent sends go to the database together, one
 * transaction per batch (storeMessages), one batch at a time per process.
 */
export function createMessageWriter(db: Db, options: WriterLimits = {}): MessageWriter {
  return createGroupWriter((batch: NewMessage[]) => storeMessages(db, batch), {
    maxBatch: options.maxBatch ?? MAX_BATCH,
    maxPending: options.maxPending ?? MAX_PENDING_SENDS,
  });
}
