// Schema migrations (drizzle/), applied by the server at start and by `npm run db:migrate`.
// On Postgres several nodes may start at once, and a deploy may run the command while old nodes
// still serve: every migrator takes one advisory lock first, so exactly one applies what is
// pending and the others then find nothing left to do. PGlite admits one process: no lock.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';

// Any constant both the server and the command agree on; pg_advisory_lock takes a bigint.
const MIGRATION_LOCK_KEY = '7208163510416215041';
// drizzle-orm's defaults (pg-core dialect.migrate).
const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';

/**
 * Applies pending migrations while holding the advisory lock, on one connection of the pool (the
 * lock belongs to that session, and a crash releases it with the connection). Waits for another
 * migrator to finish rather than failing.
 */
export async function migrateWithLock(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A failed session may still hold the lock or sit in an aborted transaction: discard it.
    client.release(broken);
  }
}

/**
 * The migrations in `migrationsFolder` the database has not applied, by tag (0004_message_seq…).
 * Drizzle applies every migration newer than the last one recorded, so that is what is compared.
 */
export async function pendingMigrations(pool: pg.Pool, migrationsFolder: string): Promise<string[]> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const { rows: table } = await pool.query<{ exists: boolean }>(
    `select to_regclass('${MIGRATIONS_TABLE}') is not null as exists`,
  );
  let last = -Infinity;
  if (table[0]?.exists) {
    const { rows } = await pool.query<{ created_at: string | null }>(`select max(created_at) as created_at from ${MIGRATIONS_TABLE}`);
    if (rows[0]?.created_at != null) last = Number(rows[0].created_at);
  }
  const tags = journalTags(migrationsFolder, migrations.length);
  return migrations.flatMap((migration, index) => (migration.folderMillis > last ? [tags[index] ?? String(migration.folderMillis)] : []));
}

// readMigrationFiles returns hashes and timestamps, not names; the journal has the names.
function journalTags(migrationsFolder: string, count: number): string[] {
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    return journal.entries.map((entry) => entry.tag);
  } catch {
    return Array.from({ length: count }, (_, index) => `#${index}`);
  }
}
