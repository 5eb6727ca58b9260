import { asShared } from './account-turns';

/**
 * What became of one item given to a group writer: the batch's own answer for it, or not written
 * now and to be tried again: `busy` (too many pending), `closing` (the writer is closing),
 * `failed` (the database failed on this very item, `error` says why).
 */
export type GroupOutcome<Out> = Out | { retry: 'busy' | 'closing' } | { retry: 'failed'; error: unknown };

export interface GroupWriterOptions {
  /** Items per transaction: enough to amortise a commit, small enough to keep one batch short. */
  maxBatch: number;
  /**
   * Items queued or being written beyond which new ones are turned away at once (the client
   * retries) instead of piling up without bound.
   */
  maxPending: number;
}

/** A writer's limits as its caller may set them; each writer has its own defaults. */
export type WriterLimits = Partial<GroupWriterOptions>;

export interface GroupWriter<In, Out> {
  write(item: In): Promise<GroupOutcome<Out>>;
  /** Items queued or being written now. */
  readonly pending: number;
  /** Stops taking items and resolves once every one already taken is committed (or answered). */
  close(): Promise<void>;
}

interface Queued<In, Out> {
  item: In;
  resolve: (outcome: GroupOutcome<Out>) => void;
}

/**
 * Group commit: items arriving together queue here and go to the database in batches, one
 * transaction per batch (`writeBatch`, which answers each item in order, and may answer one
 * `failed` itself when it committed others before the failure), one batch at a time per
 * writer. While a batch commits the next one accumulates, so batches grow with the load and an
 * idle server writes a lone item after one turn of the event loop (setImmediate: items that
 * arrived in the same turn go together), with no timer. Every item is answered once its batch has
 * committed.
 *
 * A batch that fails as a whole is retried item by item, so one item the database rejects fails
 * alone and the others are written as usual.
 */
export function createGroupWriter<In, Out>(
  writeBatch: (items: In[]) => Promise<GroupOutcome<Out>[]>,
  { maxBatch, maxPending }: GroupWriterOptions,
): GroupWriter<In, Out> {
  const queue: Queued<In, Out>[] = [];
  let pending = 0;
  let closing = false;
  let draining: Promise<void> | null = null;

  const writeOrSplit = async (items: In[]): Promise<GroupOutcome<Out>[]> => {
    try {
      return await writeBatch(items);
    } catch (error) {
      if (items.length === 1) return [{ retry: 'failed', error }];
    }
    const outcomes: GroupOutcome<Out>[] = [];
    for (const item of items) outcomes.push(...(await writeOrSplit([item])));
    return outcomes;
  };

  const drain = async () => {
    // Another turn of the event loop first: items that arrived in this one join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      const outcomes = await writeOrSplit(batch.map((queued) => queued.item));
      pending -= batch.length;
      batch.forEach((queued, index) => queued.resolve(outcomes[index]!));
    }
    // In the same synchronous step as the empty check: an item queued from here on starts a drain.
    draining = null;
  };

  return {
    write(item) {
      if (closing) return Promise.resolve({ retry: 'closing' });
      if (pending >= maxPending) return Promise.resolve({ retry: 'busy' });
      pending += 1;
      const outcome = new Promise<GroupOutcome<Out>>((resolve) => queue.push({ item, resolve }));
      // A batch carries many accounts' items: it is nobody's in particular (db/account-turns.ts),
      // whoever's item happened to start it.
      draining ??= asShared(drain);
      return outcome;
    },
    get pending() {
      return pending;
    },
    close: async () => {
      closing = true;
      while (draining) await draining;
    },
  };
}
