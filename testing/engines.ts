// The two databases the product runs on, for tests that must hold on both: PGlite (embedded, the
// default) and PostgreSQL (a throwaway cluster: testing/postgres.ts). Each hands out new, empty
// databases as the options openDatabase takes, so a test can open one, close it and open it again
// (a migration on rows an older release stored).
import path from 'node:path';
import pg from 'pg';
import type { DatabaseOptions } from '../server/db/engine/open-database';
import { startPostgres } from './postgres';

export interface Engine {
  name: 'PGlite' | 'PostgreSQL';
  /** A new, empty database; migrationsFolder and the rest are the caller's to add. */
  fresh(): Promise<DatabaseOptions>;
  stop(): Promise<void>;
}

export const ENGINES = ['PGlite', 'PostgreSQL'] as const;

/** Starts `name` with its files under `dir` (a temporary directory of the caller's). */
export async function startEngine(name: Engine['name'], dir: string): Promise<Engine> {
  let count = 0;
  if (name === 'PGlite') {
    return { name, fresh: async () => ({ pgliteDir: path.join(dir, `pglite-${++count}`) }), stop: async () => {} };
  }
  const postgres = await startPostgres(path.join(dir, 'postgres'));
  const admin = new pg.Pool({ connectionString: postgres.url, max: 1 });
  return {
    name,
    async fresh() {
      const database = `fresh_${++count}`;
      await admin.query(`create database ${database}`);
      return { databaseUrl: postgres.url.replace(/\/postgres$/, `/${database}`) };
    },
    async stop() {
      await admin.end();
      await postgres.stop();
    },
  };
}
