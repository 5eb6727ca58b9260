// The migrations as a previous release had them, for tests of a migration on rows stored before it.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase, type DatabaseOptions, type Db } from '../server/db/engine/open-database';
import { ENGINES, startEngine, type Engine } from './engines';

/** The repository's migrations (drizzle/). */
export const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');

/**
 * A copy of drizzle/ in `dir` that stops just before the migration whose tag ends with `tagEnd`
 * (`_hardening`), as the release before it shipped; returns the copy's path.
 */
export async function migrationsBefore(tagEnd: string, dir: string): Promise<string> {
  await cp(MIGRATIONS, dir, { recursive: true });
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith(tagEnd));
  if (at <= 0) throw new Error(`no migration ending with ${tagEnd} after the first`);
  await writeFile(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return dir;
}

export interface MigrationSetup {
  /** The engine this describe block runs on (each test takes a fresh database of it). */
  engine: () => Engine;
  /** The migrations folder as it was before the migration whose tag ends with `tagEnd` (one of those asked for). */
  before: (tagEnd: string) => string;
}

/**
 * A migration test file's frame: drizzle/ as it stood before each of `tagEnds` (migrationsBefore,
 * in a temporary directory removed at the end), and `body` described once per engine, with the
 * engine running around it.
 */
export function describeMigration(tagEnds: readonly string[], body: (setup: MigrationSetup) => void): void {
  let dir: string;
  const folders = new Map<string, string>();
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-migration-'));
    for (const [index, tagEnd] of tagEnds.entries()) folders.set(tagEnd, await migrationsBefore(tagEnd, path.join(dir, `before-${index}`)));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe.each(ENGINES)('on %s', (name) => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await startEngine(name, path.join(dir, name));
    }, 120_000);
    afterAll(() => engine?.stop());
    body({
      engine: () => engine,
      before: (tagEnd) => {
        const folder = folders.get(tagEnd);
        if (!folder) throw new Error(`migrations before ${tagEnd} were not asked for`);
        return folder;
      },
    });
  });
}

/**
 * Opens the database with the migrations of `migrationsFolder` (run first, as a node of the
 * release that had them would), does `work` on it and closes it: each phase of a migration test
 * (the release before, its rollout, this release) is one call.
 */
export async function withDatabase<T>(options: DatabaseOptions & { migrationsFolder: string }, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase(options);
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
