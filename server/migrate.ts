// `npm run db:migrate`: applies pending migrations to DATABASE_URL and exits. Safe on every deploy
// and alongside running or starting nodes: it takes the same advisory lock as a server start
// (server/db/engine/migrate.ts), and with nothing pending it changes nothing.
import path from 'node:path';
import pg from 'pg';
import { loadDatabaseConfig } from './config';
import { migrateWithLock, pendingMigrations } from './db/engine/migrate';

async function main(): Promise<void> {
  const { databaseUrl } = loadDatabaseConfig();
  if (!databaseUrl) {
    // PGlite's directory admits one process: the server applies its migrations itself at start.
    throw new Error('DATABASE_URL is not set. With the embedded PGlite the server migrates at start; nothing to do here.');
  }
  const migrationsFolder = path.resolve(process.cwd(), 'drizzle');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const pending = await pendingMigrations(pool, migrationsFolder);
    await migrateWithLock(pool, migrationsFolder);
    // Another migrator may have applied some of them while this one waited for the lock.
    console.log(pending.length > 0 ? `Migrations up to date (were pending: ${pending.join(', ')}).` : 'Migrations up to date (none pending).');
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error('Migration failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
