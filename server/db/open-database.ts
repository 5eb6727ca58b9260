import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { migrateWithLock, pendingMigrations } from './migrate';
import * as schema from './schema';

export type Schema = typeof schema;
/** Either driver: queries in server/db are written against what both have in common. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** node-postgres when set; wins over everything below. */
  databaseUrl?: string;
  /** PGlite lives in `${dataDir}/pglite`. */
  dataDir?: string;
  /** Explicit PGlite directory (tests); 'memory' keeps it in memory. Overrides dataDir. */
  pgliteDir?: string;
  /** Defaults to drizzle/ under the working directory (the repo root in every entry point). */
  migrationsFolder?: string;
  /**
   * Postgres only (PGlite always migrates): false checks that no migration is pending and
   * refuses to open otherwise, for deployments that run `npm run db:migrate` as a release step.
   * Default true: apply them, under the advisory lock that makes concurrent starts safe.
   */
  migrateOnStart?: boolean;
}

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? path.resolve(process.cwd(), 'drizzle');

  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl });
    const db = drizzleNodePg({ client: pool, schema });
    try {
      if (options.migrateOnStart === false) {
        const pending = await pendingMigrations(pool, migrationsFolder);
        if (pending.length > 0) {
          throw new PendingMigrationsError(
            `The database lacks migrations ${pending.join(', ')} and MIGRATE_ON_START=false: run npm run db:migrate first.`,
          );
        }
      } else {
        await migrateWithLock(pool, migrationsFolder);
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db, close: () => pool.end() };
  }

  const dir = options.pgliteDir ?? path.join(options.dataDir ?? '.data', 'pglite');
  const inMemory = dir === 'memory';
  if (!inMemory) await mkdir(dir, { recursive: true });
  const client = await PGlite.create(inMemory ? undefined : dir);
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db, close: () => client.close() };
}
