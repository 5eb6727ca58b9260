// The migrations as a previous release had them, for tests of a migration on rows stored before it.
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
