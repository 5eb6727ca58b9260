// PGlite runs no autovacuum (it has no background workers), so nothing would ever reclaim the
// row versions every message leaves behind: each send rewrites its conversation's head, and each
// read the reader's member row and account. Left alone, those tables and their indexes grow by a
// dead row a message and every later lookup wades through them; when each send rewrote four rows
// (the pair model), at 1,000 messages a second the send path's p50 was 47 ms in the first minute
// and 453 ms in the fifth, against 5-9 ms with it (BENCHMARKS.md). The upkeep
// does autovacuum's work on a timer instead, through the same connection as every query, so it
// waits for a transaction in progress and runs between two.
//
// Nor does anything keep the planner's statistics, and PGlite forgets them at every restart. With
// none, the planner takes the messages table for a few pages and sorts a whole history to return
// its first rows: a sync page of 500 from the start of a 10,000-message account cost 166 ms
// instead of 78 (BENCHMARKS.md, "flood"). So the upkeep analyzes at start every table that holds
// more than the 10 pages the planner assumes of one never analyzed, then each table autovacuum
// would (more than 50 rows + 10 % changed since its last analysis). Not the small ones at start:
// an empty table analyzed is planned as empty, and the plans a prepared statement keeps then scan
// it whole as it grows until the next analysis; at 1,000 new messages a second that held the send
// path at 600 a second, 10 s behind (BENCHMARKS.md, "Conversations written twice").
//
// Every statement holds the one database while it runs, so none may hold it long. A whole
// `analyze messages` takes ~190 ms on 14,000 messages, most of it evaluating the search index's
// expression (to_tsvector with unaccent) for every sampled row; a person's send that arrives
// meanwhile waits for all of it. The minutely analysis therefore gathers only the fixed-width
// columns (ids, seqs, timestamps, flags: what the hot queries filter, join and order on; ~27 ms),
// and the full statistics (text, jsonb, expression indexes) are refreshed with the quarter-hourly
// vacuum, one table per statement so other queries run between them.
import type pg from 'pg';

/**
 * The tables rewritten on every send or read: vacuumed often (each run is cheap, they hold one
 * row per account, conversation or member). Also the one a pair's first message adds to, which a
 * vacuum keeps sized for the planner while it grows.
 */
const HOT_TABLES = ['users', 'conversations_v2', 'conversation_members', 'account_conversations'] as const;
const HOT_VACUUM_MS = 10_000;
/** Everything else (reads, reactions and edits rewrite messages; GIN's pending list is merged), with full planner statistics. */
const FULL_VACUUM_MS = 15 * 60_000;
const ANALYZE_CHECK_MS = 60_000;
/** Autovacuum's defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor). */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
// Schema-qualified: drizzle keeps its migrations table in its own schema, outside the search path.
const TABLES = `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables order by schemaname, relname`;
/** The tables larger than the planner's guess for one never analyzed (10 pages). */
const SIZED_TABLES = `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
  where pg_relation_size(relid) > 10 * current_setting('block_size')::int order by schemaname, relname`;
/**
 * Each table's changes since its last full analysis and its fixed-width columns. (An analysis of
 * some columns leaves n_mod_since_analyze alone, so the upkeep counts from where its own last one was.)
 */
const CHANGED_TABLES = `select format('%I.%I', s.schemaname, s.relname) as name, s.n_mod_since_analyze as changed, s.n_live_tup as live,
    string_agg(quote_ident(a.attname), ', ' order by a.attnum) as columns
  from pg_stat_user_tables s join pg_attribute a on a.attrelid = s.relid and a.attnum > 0 and not a.attisdropped and a.attlen > 0
  group by s.schemaname, s.relname, s.n_mod_since_analyze, s.n_live_tup order by 1`;

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
  const query = <Row>(statement: string) =>
    pool.query<Row & pg.QueryResultRow>(statement).then(
      (result) => result?.rows ?? [],
      (error: unknown) => {
        onError(error, statement);
        return null;
      },
    );
  const run = (statement: string) => start(async () => void (await query(statement)));

  // n_mod_since_analyze of each table when the upkeep last analyzed its fixed-width columns.
  const changedAtLastAnalysis = new Map<string, number>();
  const analyzeChanged = () =>
    start(async () => {
      const tables = await query<{ name: string; changed: string | number; live: string | number; columns: string }>(CHANGED_TABLES);
      for (const table of tables ?? []) {
        const changed = Number(table.changed);
        const since = changed - (changedAtLastAnalysis.get(table.name) ?? 0);
        if (since <= ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * Number(table.live)) continue;
        if ((await query(`analyze ${table.name} (${table.columns})`)) !== null) changedAtLastAnalysis.set(table.name, changed);
      }
    });
  // One table per statement, so other queries run between them.
  const analyzeEach = async (tables: string) => {
    for (const table of (await query<{ name: string }>(tables)) ?? []) await query(`analyze ${table.name}`);
  };
  const vacuumAndAnalyzeAll = () =>
    start(async () => {
      await query('vacuum');
      // Each whole analysis resets its table's count of changes.
      changedAtLastAnalysis.clear();
      await analyzeEach(TABLES);
    });

  start(() => analyzeEach(SIZED_TABLES));
  const timers = [
    setInterval(() => run(`vacuum ${HOT_TABLES.join(', ')}`), hotMs),
    setInterval(vacuumAndAnalyzeAll, fullMs),
    setInterval(analyzeChanged, analyzeMs),
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
