// PGlite has no autovacuum: the upkeep vacuums the tables every send rewrites, and everything else;
// and the search index's pending list, which only an insert merges between two vacuums, stays small.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from './open-database';
import { startUpkeep } from './pglite-upkeep';
import { rows } from './raw-rows';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory', pgliteUpkeep: { hotMs: 50, fullMs: 150 } });
});
afterAll(() => database.close());

const stats = (table: string) =>
  rows<{ dead: number | string; vacuumed: Date | string | null }>(
    database.db,
    sql`select n_dead_tup as dead, coalesce(last_vacuum, last_autovacuum) as vacuumed from pg_stat_user_tables where relname = ${table}`,
  ).then(([row]) => ({ dead: Number(row?.dead ?? 0), vacuumed: row?.vacuumed ?? null }));

describe('PGlite upkeep', () => {
  it('reclaims the row versions sends and reads leave in heads and accounts, and vacuums the rest too', async () => {
    await database.db.execute(sql`insert into users (firebase_uid, username, social_type) values ('upkeep-a', 'A', 'google'), ('upkeep-b', 'B', 'google')`);
    const [a, b] = (await rows<{ id: number }>(database.db, sql`select id from users where firebase_uid like 'upkeep-%' order by id`)).map((row) => row.id);
    await database.db.execute(sql`insert into conversations_v2 (kind, direct_low, direct_high) values ('direct', ${a}, ${b})`);
    // What every message and read does to these rows: a new version each time.
    for (let i = 1; i < 200; i += 1) {
      await database.db.execute(sql`update conversations_v2 set last_seq = ${i}, message_count = ${i} where direct_low = ${a}`);
      await database.db.execute(sql`update users set account_seq = account_seq + 1 where id = ${b}`);
    }
    await vi.waitFor(
      async () => {
        for (const table of ['conversations_v2', 'users', 'messages']) expect((await stats(table)).vacuumed).not.toBeNull();
        expect((await stats('conversations_v2')).dead).toBe(0);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('keeps message search’s GIN pending list small, so the insert that merges it is short', async () => {
    const [index] = await rows<{ options: string[] | null }>(database.db, sql`select reloptions as options from pg_class where relname = 'messages_search_idx'`);
    expect(index?.options).toContain('gin_pending_list_limit=256');
  });

  it('analyzes at start the tables that hold rows (not the empty ones), then each one autovacuum would (50 rows + 10 % changed)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-upkeep-'));
    const upkeep = { hotMs: 60_000, fullMs: 60_000, analyzeMs: 60_000 };
    const analyzed = (db: Database['db'], table: string) =>
      rows<{ at: Date | string | null; tuples: number | string }>(
        db,
        sql`select s.last_analyze as at, c.reltuples as tuples from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = ${table}`,
      ).then(([row]) => ({ at: row?.at ?? null, tuples: Number(row?.tuples ?? -1) }));
    try {
      const before = await openDatabase({ pgliteDir: dir, pgliteUpkeep: upkeep });
      await before.db.execute(sql`insert into users (firebase_uid, username, social_type) select 'start-' || i, 'S' || i, 'google' from generate_series(1, 2000) as i`);
      await before.close();
      // After a restart: statistics for the table with rows, which PGlite does not keep; the empty
      // messages table is left never analyzed (analyzed before users, in name order, if at all),
      // so the planner does not take it for empty as it fills.
      const restarted = await openDatabase({ pgliteDir: dir, pgliteUpkeep: upkeep });
      try {
        await vi.waitFor(async () => expect(await analyzed(restarted.db, 'users')).toMatchObject({ tuples: 2000 }), { timeout: 10_000, interval: 20 });
        expect(await analyzed(restarted.db, 'messages')).toEqual({ at: null, tuples: -1 });
      } finally {
        await restarted.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const fresh = await openDatabase({ pgliteDir: 'memory', pgliteUpkeep: { hotMs: 60_000, fullMs: 60_000, analyzeMs: 50 } });
    try {
      const analyzedHere = (table: string) => analyzed(fresh.db, table);
      await fresh.db.execute(sql`insert into users (firebase_uid, username, social_type) select 'stats-' || i, 'S' || i, 'google' from generate_series(1, 300) as i`);
      // Without a new analysis the planner would still take users for an empty table.
      await vi.waitFor(async () => expect((await analyzedHere('users')).tuples).toBe(300), { timeout: 10_000, interval: 20 });
      // Of its columns only the fixed-width ones, which are cheap to gather: text and expression
      // statistics wait for the full run, so no minutely analysis holds the database long.
      const columns = await rows<{ name: string }>(fresh.db, sql`select attname as name from pg_stats where tablename = 'users' order by attname`);
      expect(columns.map((column) => column.name)).toContain('id');
      expect(columns.map((column) => column.name)).not.toContain('username');
      // And not again until it has changed enough again (that analysis leaves n_mod_since_analyze alone).
      const count = () =>
        rows<{ count: number | string }>(fresh.db, sql`select analyze_count as count from pg_stat_user_tables where relname = 'users'`).then(([row]) => Number(row?.count));
      const after = await count();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await count()).toBe(after);
    } finally {
      await fresh.close();
    }
  });

  it('refreshes every table’s full statistics, text and expression indexes included, with the quarter-hourly vacuum', async () => {
    const failures: string[] = [];
    const onError = (error: unknown, statement: string) => failures.push(`${statement}: ${String(error)}`);
    const fresh = await openDatabase({ pgliteDir: 'memory', pgliteUpkeep: { hotMs: 60_000, fullMs: 300, analyzeMs: 60_000, onError } });
    try {
      await fresh.db.execute(sql`insert into users (firebase_uid, username, social_type) select 'full-' || i, 'F' || i, 'google' from generate_series(1, 300) as i`);
      await vi.waitFor(
        async () => {
          const columns = await rows<{ name: string }>(fresh.db, sql`select attname as name from pg_stats where tablename = 'users'`);
          expect(columns.map((column) => column.name)).toEqual(expect.arrayContaining(['id', 'username']));
        },
        { timeout: 10_000, interval: 50 },
      );
      // Every table, drizzle's migrations table in its own schema included, and none failed.
      await vi.waitFor(
        async () => {
          // By the quarter-hourly runs (at start only tables with rows are analyzed).
          const [migrations] = await rows<{ count: number | string }>(fresh.db, sql`select analyze_count as count from pg_stat_user_tables where relname = '__drizzle_migrations'`);
          expect(Number(migrations?.count)).toBeGreaterThanOrEqual(2);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(failures).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('runs one vacuum at a time, reports a failure and goes on; stopping waits for the run in progress', async () => {
    let finish = () => {};
    const statements: string[] = [];
    const failures: string[] = [];
    let calls = 0;
    const pool = {
      query: (statement: string) => {
        statements.push(statement);
        calls += 1;
        if (calls === 1) return Promise.reject(new Error('disk full'));
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    };
    const upkeep = startUpkeep(pool as never, { hotMs: 10, fullMs: 60_000, onError: (error) => failures.push(String(error)) });
    await vi.waitFor(() => expect(statements).toHaveLength(2));
    expect(failures).toEqual(['Error: disk full']);
    expect(statements).toEqual([expect.stringContaining('pg_relation_size'), 'vacuum users, conversations_v2, conversation_members, account_conversations']);
    // The second run hangs: ticks meanwhile start nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statements).toHaveLength(2);
    let stopped = false;
    const stopping = upkeep.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(statements).toHaveLength(2);
  });
});
