// PGlite runs no autovacuum (it has no background workers), so nothing would ever reclaim the
// row versions every message leaves behind: each send rewrites both people's conversation rows
// and both accounts' last_seq. Left alone, those tables and their indexes grow by two dead rows a
// message and every later lookup wades through them; at 1,000 messages a second the send path's
// p50 was 47 ms in the first minute and 453 ms in the fifth, against 5-9 ms with it (BENCHMARKS.md). The upkeep
// does autovacuum's work on a timer instead, through the same connection as every query, so it
// waits for a transaction in progress and runs between two.
import type pg from 'pg';

/** The tables rewritten on every send: vacuumed often (each run is cheap, they hold one row per account or pair). */
const HOT_TABLES = ['conversations', 'users'] as const;
const HOT_VACUUM_MS = 10_000;
/** Everything else (reads, reactions and edits rewrite messages; GIN's pending list is merged), with fresh planner statistics. */
const FULL_VACUUM_MS = 15 * 60_000;

export interface UpkeepOptions {
  hotMs?: number;
  fullMs?: number;
  /** A run that failed (the database stays usable; the next run tries again). */
  onError?: (error: unknown, statement: string) => void;
}

export interface Upkeep {
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startUpkeep(pool: Pick<pg.Pool, 'query'>, { hotMs = HOT_VACUUM_MS, fullMs = FULL_VACUUM_MS, onError = () => {} }: UpkeepOptions = {}): Upkeep {
  let running: Promise<void> | null = null;
  let stopped = false;

  // One run at a time: a run still going when the next is due makes that one wait for the next tick.
  const run = (statement: string) => {
    if (stopped || running) return;
    running = pool
      .query(statement)
      .then(
        () => undefined,
        (error: unknown) => onError(error, statement),
      )
      .finally(() => {
        running = null;
      });
  };

  const timers = [
    setInterval(() => run(`vacuum ${HOT_TABLES.join(', ')}`), hotMs),
    setInterval(() => run('vacuum (analyze)'), fullMs),
  ];
  // Upkeep never keeps the process alive.
  for (const timer of timers) timer.unref();

  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await running;
    },
  };
}
