import { sql } from 'drizzle-orm';
import type { Db } from '../db/engine/open-database';

/**
 * Columns that legitimately change without a write request: a session's last use is touched by
 * authenticating, a user's last-seen time by their last tab closing (presence).
 */
const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = { sessions: ['last_used_at'], users: ['last_seen_at'] };

/** Every row of every table in the public schema, as sorted JSON text, table by table. */
export type DbSnapshot = Record<string, string[]>;

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A snapshot of all stored data (every table, so a table added later is covered too), minus the
 * volatile columns. Compare two with toEqual to prove a run stored nothing.
 */
export async function snapshotDatabase(db: Db, volatile = VOLATILE_COLUMNS): Promise<DbSnapshot> {
  const tables = await rows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const snapshot: DbSnapshot = {};
  for (const { table_name: table } of tables) {
    const dropped = (volatile[table] ?? []).map((column) => `'${column.replace(/'/g, "''")}'`).join(', ');
    const result = await rows<{ row: string }>(
      db,
      sql`select (to_jsonb(t) - ${sql.raw(`array[${dropped}]::text[]`)})::text as row from ${sql.identifier(table)} t order by 1`,
    );
    snapshot[table] = result.map(({ row }) => row);
  }
  return snapshot;
}
