import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/engine/open-database';
import { deleteStaleReservations, deleteUnattachedUploads } from '../db/upload-sweep';
import type { FileStorage } from './file-storage';

export interface UploadSweeper {
  /** One full round now: every expired unattached upload (row, then file), and dead reservations. */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a round in progress. */
  stop(): Promise<void>;
}

export interface UploadSweeperDeps {
  db: Db;
  storage: FileStorage;
  /** Uploads never attached are deleted this long after they were made. */
  ttlMs: number;
  log: FastifyBaseLogger;
}

// Rows per transaction: short transactions, so sends attaching one of them wait little.
const BATCH = 100;
// Past this many rows a round stops and the next one carries on (a backlog after downtime).
const MAX_PER_ROUND = 10_000;
// Often enough that nothing outlives its time by much; a round that finds nothing is one index probe.
const MAX_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes uploads never attached to a message once they are `ttlMs` old: every node runs one, and
 * the rows are divided between them by the database (db/upload-sweep.ts). A file is removed only
 * after its row's deletion has committed, so no message or download can still reach it; a node
 * killed in between leaves a file no row points to (space, never a broken message).
 */
export function startUploadSweeper({ db, storage, ttlMs, log }: UploadSweeperDeps): UploadSweeper {
  let running: Promise<number> | undefined;

  async function round(): Promise<number> {
    let removed = 0;
    for (;;) {
      const swept = await deleteUnattachedUploads(db, new Date(Date.now() - ttlMs), BATCH);
      for (const upload of swept) {
        await storage.remove(upload.storageKey).catch((error: unknown) => log.warn({ err: error, upload: upload.id }, 'swept upload: file not removed'));
      }
      removed += swept.length;
      if (swept.length < BATCH || removed >= MAX_PER_ROUND) break;
    }
    const reservations = await deleteStaleReservations(db);
    if (removed > 0 || reservations > 0) log.info({ uploads: removed, reservations }, 'unattached uploads swept');
    return removed;
  }

  const sweep = () =>
    (running ??= round()
      .catch((error: unknown) => {
        log.error({ err: error }, 'upload sweep failed');
        return 0;
      })
      .finally(() => (running = undefined)));

  const timer = setInterval(() => void sweep(), Math.max(1_000, Math.min(MAX_INTERVAL_MS, ttlMs / 4)));
  timer.unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
