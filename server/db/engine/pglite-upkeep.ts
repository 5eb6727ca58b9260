// PGlite runs no autovacuum (it has no background workers), so nothing would ever reclaim the
// row versions every message leaves behind: each send rewrites both people's conversation rows
// and both accounts' last_seq. Left alone, those tables and their indexes grow by two dead rows a
// message and every later lookup wades through them; at 1,000 messages a second the send path's
// p50 was 47 ms in the first minute and 453 ms in the fifth, against 5-9 ms with it (BENCHMARKS.md). The upkeep
// does autovacuum's work on a timer instead, through the same connection as every query, so it
// waits for a transaction in progress and runs between two.
//
// Nor does anything keep the planner's statistics, and PGlite forgets them at every restart. With
// none, the planner takes the messages table for a few pages and sorts a whole history to return
// its first rows: a sync page of 500 from the start of a 10,000-message account cost 166 ms
// instead of 78 (BENCHMARKS.md, "flood"). So the upkeep analyzes everything once at start, then
// each table autovacuum would have (more than 50 rows + 10 % changed since its last analysis).
import type pg from 'pg';

/** The tables rewritten on every send: vacuumed often (each run is cheap, they hold one row per account or pair). */
const HOT_TABLES = ['conversations', 'users'] as const;
const HOT_VACUUM_MS = 10_000;
/** Everything else (reads, reactions and edits rewrite messages; GIN's pending list is merged), with fresh planner statistics. */
const FULL_VACUUM_MS = 15 * 60_000;
const ANALYZE_CHECK_MS = 60_000;
/** Autovacuum's defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor). */
const STALE_TABLES = `select quote_ident(relname) as name from pg_stat_user_tables
  where n_mod_since_analyze > 50 + 0.1 * n_live_tup order by relname`;

export interface UpkeepOptions {
  hotMs?: number;
  fullMs?: number;
  /** How often the tables changed enough since their last analysis are analyzed. */
  analyzeMs?: number;
  /** A run that failed (the database stays usable; the next run tries again). */
  onError?: (error: unknown, statement: string) => void;
}

export interface Upkeep {
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startUpkeep(
  pool: Pick<pg.Pool, 'query'>,
  { hotMs = HOT_VACUUM_MS, fullMs = FULL_VACUUM_MS, analyzeMs = ANALYZE_CHECK_MS, onError = () => {} }: UpkeepOptions = {},
): Upkeep {
  let running: Promise<void> | null = null;
  let stopped = false;

  // One run at a time: a run still going when the next is due makes that one wait for the next tick.
  const start = (work: () => Promise<void>) => {
    if (stopped || running) return;
    running = work().finally(() => {
      running = null;
    });
  };
  const query = (statement: string) =>
    pool.query<{ name: string }>(statement).then(
      (result) => result?.rows ?? [],
      (error: unknown) => {
        onError(error, statement);
        return null;
      },
    );
  const run = (statement: string) => start(async () => void (await query(statement)));
  const analyzeStale = () =>
    start(async () => {
      const stale = await query(STALE_TABLES);
      if (stale?.length) await query(`analyze ${stale.map((table) => table.name).join(', ')}`);
    });

  run('analyze');
  const timers = [
    setInterval(() => run(`vacuum ${HOT_TABLES.join(', ')}`), hotMs),
    setInterval(() => run('vacuum (analyze)'), fullMs),
    setInterval(analyzeStale, analyzeMs),
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
