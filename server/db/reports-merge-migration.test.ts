// The hand-written part of the migration that allows one open report per reporter and person,
// run on reports filed before it (on Postgres, whose SQL PGlite shares, to spare a PGlite start).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../testing/postgres';
import { openDatabase } from './engine/open-database';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../drizzle');
let dir: string;
let postgres: ThrowawayPostgres;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-reports-merge-'));
  postgres = await startPostgres(path.join(dir, 'pg'));
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('merges the open reports of one reporter against one person into the first, counting them as filings', { timeout: 120_000 }, async () => {
  const before = path.join(dir, 'before');
  await cp(MIGRATIONS, before, { recursive: true });
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith('_reports_one_open_per_pair'));
  expect(at).toBeGreaterThan(0);
  await writeFile(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

  const old = await openDatabase({ databaseUrl: postgres.url, migrationsFolder: before });
  await old.db.execute(sql`insert into users (firebase_uid, username, social_type) values ('r', 'R', 'google'), ('t', 'T', 'google'), ('o', 'O', 'google')`);
  // Three open reports of T by R (the second names a message text), one resolved, one by O.
  await old.db.execute(sql`insert into reports (reporter_id, reported_user_id, message_text, reason, details, created_at, resolved_at) values
    (1, 2, null, 'spam', 'first', '2026-01-01T00:00:00Z', null),
    (1, 2, 'pills', 'spam', 'second', '2026-01-02T00:00:00Z', null),
    (1, 2, null, 'other', null, '2026-01-03T00:00:00Z', null),
    (1, 2, null, 'spam', 'old', '2025-12-01T00:00:00Z', '2025-12-02T00:00:00Z'),
    (3, 2, null, 'harassment', null, '2026-01-04T00:00:00Z', null)`);
  await old.close();

  const migrated = await openDatabase({ databaseUrl: postgres.url, migrationsFolder: MIGRATIONS });
  try {
    const rows = await migrated.db.execute(sql`select id, reporter_id, message_text, details, filings, to_char(last_filed_at at time zone 'UTC', 'YYYY-MM-DD') as last_filed, resolved_at is null as open from reports order by id`);
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { id: 1, reporter_id: 1, message_text: 'pills', details: 'first', filings: 3, last_filed: '2026-01-03', open: true },
      { id: 4, reporter_id: 1, message_text: null, details: 'old', filings: 1, last_filed: '2025-12-01', open: false },
      { id: 5, reporter_id: 3, message_text: null, details: null, filings: 1, last_filed: '2026-01-04', open: true },
    ]);
  } finally {
    await migrated.close();
  }
});
