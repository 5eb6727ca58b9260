import path from 'node:path';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { ensurePrivateDir, makeTreePrivate, restrictUmask } from '../../security/private-files';
import { takeTurns } from './account-turns';
import { lockDataDir } from './data-dir-lock';
import { migrateWithLock, pendingMigrations } from './migrate';
import { exitOnCrash, startPgliteWorker } from './pglite-host';
import { startUpkeep, type UpkeepOptions } from './pglite-upkeep';
import * as schema from '../schema';

type Schema = typeof schema;
/** Either driver: queries in server/db are written against what both have in common. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** node-postgres when set; wins over everything below. */
  databaseUrl?: string;
  /** PGlite lives in `${dataDir}/pglite`; the folder is made private (0700) first. */
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
  /** PGlite's worker died while open. Default: one line on stderr and the process exits. */
  onPgliteCrash?: (error: Error) => void;
  /** PGlite only: how often its vacuums run (pglite-upkeep.ts); tests shorten them. */
  pgliteUpkeep?: Pick<UpkeepOptions, 'hotMs' | 'fullMs' | 'analyzeMs' | 'onError'>;
}

export class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? path.resolve(process.cwd(), 'drizzle');

  if (options.databaseUrl) {
    return openPool(new pg.Pool({ connectionString: options.databaseUrl }), migrationsFolder, options.migrateOnStart);
  }

  const dir = options.pgliteDir ?? path.join(options.dataDir ?? '.data', 'pglite');
  const onCrash = options.onPgliteCrash ?? exitOnCrash;
  if (dir === 'memory') return openPglite(null, migrationsFolder, onCrash, options.pgliteUpkeep);
  if (!options.pgliteDir) await ensurePrivateDir(options.dataDir ?? '.data');
  await ensurePrivateDir(dir);
  // Before PGlite touches the folder: a second process would hand out the same ids (data-dir-lock.ts).
  const lock = await lockDataDir(dir);
  try {
    // Folders PGlite creates from here on are private; some of its files it makes 0666 or 0644
    // itself, so the whole tree is tightened once it is open, and again when it closes.
    restrictUmask();
    await makeTreePrivate(dir);
    const database = await openPglite(dir, migrationsFolder, onCrash, options.pgliteUpkeep);
    await makeTreePrivate(dir);
    return {
      db: database.db,
      close: async () => {
        try {
          await database.close();
          await makeTreePrivate(dir);
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function openPool(pool: pg.Pool, migrationsFolder: string, migrateOnStart = true): Promise<Database> {
  // A connection that breaks while idle (the server restarting or shutting down, a failover, one
  // closing as the pool ends) is reported as the pool's 'error' event, which with no listener
  // throws and ends the process. The pool has already dropped that connection and the next query
  // opens a new one; a query that was running gets its own error. Found as an uncaught error when
  // a test's PostgreSQL stopped while the pool was ending.
  pool.on('error', () => {});
  // One account's queries never queue ahead of everyone else's (account-turns.ts).
  takeTurns(pool, pool.options.max);
  const db = drizzleNodePg({ client: pool, schema });
  try {
    if (!migrateOnStart) {
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

/**
 * PGlite in its worker thread (pglite-host.ts), reached through node-postgres over its socket: one
 * connection, since PGlite runs one statement at a time whatever the number of clients.
 * Closing ends the pool first (nothing is in flight after it), then the worker.
 */
async function openPglite(dir: string | null, migrationsFolder: string, onCrash: (error: Error) => void, upkeepOptions: UpkeepOptions = {}): Promise<Database> {
  const host = await startPgliteWorker({ dataDir: dir, onCrash });
  // Never closed for idleness: a new connection costs a session reset and the batch's PREPAREs.
  const pool = new pg.Pool({ host: host.socketDir, user: 'postgres', database: 'postgres', max: 1, idleTimeoutMillis: 0 });
  try {
    const database = await openPool(pool, migrationsFolder);
    // A failed vacuum leaves the database as it was: one line, and the next run tries again.
    const upkeep = startUpkeep(pool, {
      onError: (error, statement) => process.stderr.write(`PGlite upkeep: ${statement} failed: ${String(error)}\n`),
      ...upkeepOptions,
    });
    return {
      db: database.db,
      close: async () => {
        try {
          await upkeep.stop();
          await database.close();
        } finally {
          await host.close();
        }
      },
    };
  } catch (error) {
    await host.close();
    throw error;
  }
}
