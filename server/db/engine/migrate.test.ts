// Migrations on a real (throwaway) Postgres: several migrators at once, the release-step command,
// and a server that is told not to migrate.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../../testing/postgres';
import { buildServerBundle } from '../../../testing/processes';
import { migrateWithLock, pendingMigrations } from './migrate';
import { openDatabase, PendingMigrationsError } from './open-database';

const run = promisify(execFile);
const MIGRATIONS = path.resolve(import.meta.dirname, '../../../drizzle');

let dir: string;
let postgres: ThrowawayPostgres;
let admin: pg.Pool;
let databases = 0;

/** A fresh, empty database on the throwaway cluster. */
async function freshDatabase(): Promise<string> {
  const name = `migrate_${++databases}`;
  await admin.query(`create database ${name}`);
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

async function appliedCount(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url });
  try {
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
    return Number(rows[0]?.n);
  } finally {
    await pool.end();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-migrate-'));
  postgres = await startPostgres(path.join(dir, 'pg'));
  admin = new pg.Pool({ connectionString: postgres.url });
}, 120_000);

afterAll(async () => {
  await admin?.end();
  await postgres?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('migrations on Postgres', () => {
  it('applies each migration exactly once when several nodes start at the same moment', async () => {
    const url = await freshDatabase();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url }));
    try {
      // Without the lock, two would both create drizzle's table or apply 0000 twice and fail.
      await Promise.all(pools.map((pool) => migrateWithLock(pool, MIGRATIONS)));
      expect(await pendingMigrations(pools[0]!, MIGRATIONS)).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const { length } = (await import('drizzle-orm/migrator')).readMigrationFiles({ migrationsFolder: MIGRATIONS });
    expect(await appliedCount(url)).toBe(length);
  });

  it('lists every migration as pending on an empty database, by name', async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase() });
    try {
      const pending = await pendingMigrations(pool, MIGRATIONS);
      expect(pending[0]).toBe('0000_init');
      expect(pending.length).toBeGreaterThanOrEqual(5);
    } finally {
      await pool.end();
    }
  });

  it('with MIGRATE_ON_START=false, refuses to open a database that lacks migrations and opens a migrated one', async () => {
    const url = await freshDatabase();
    await expect(openDatabase({ databaseUrl: url, migrationsFolder: MIGRATIONS, migrateOnStart: false })).rejects.toThrow(
      PendingMigrationsError,
    );
    const migrated = await openDatabase({ databaseUrl: url, migrationsFolder: MIGRATIONS });
    await migrated.close();
    const checked = await openDatabase({ databaseUrl: url, migrationsFolder: MIGRATIONS, migrateOnStart: false });
    await checked.close();
  });

  it('an idle connection the server ends (a restart, a failover) costs nothing: no crash, and the next query reconnects', async () => {
    const url = await freshDatabase();
    const database = await openDatabase({ databaseUrl: url, migrationsFolder: MIGRATIONS });
    try {
      await database.db.execute(sql`select 1`);
      const name = new URL(url).pathname.slice(1);
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      expect(ended.rowCount).toBeGreaterThan(0);
      // The pool hears of it while idle; without a listener that would be an uncaught error here.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await database.db.execute(sql`select 2 as two`)).toMatchObject({ rows: [{ two: 2 }] });
    } finally {
      await database.close();
    }
  });

  it('npm run db:migrate (the bundled command) migrates, then finds nothing to do; without DATABASE_URL it refuses', async () => {
    const url = await freshDatabase();
    const entry = await buildServerBundle(path.join(dir, 'build'));
    const migrate = path.join(path.dirname(entry), 'migrate.mjs');
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATABASE_URL: url };
    const cwd = path.resolve(import.meta.dirname, '../../..');

    const first = await run(process.execPath, [migrate], { cwd, env });
    expect(first.stdout).toMatch(/were pending: 0000_init/);
    const again = await run(process.execPath, [migrate], { cwd, env });
    expect(again.stdout).toMatch(/none pending/);

    const refused = await run(process.execPath, [migrate], { cwd, env: { ...env, DATABASE_URL: '' } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/DATABASE_URL is not set/) });
  }, 60_000);
});
