// The hand-written end of the hardening migration, run on rows stored before it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATIONS, migrationsBefore } from '../../testing/migrations';
import { openDatabase } from './engine/open-database';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-backfill-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('drops stored http avatars and the invisible characters of stored names', { timeout: 120_000 }, async () => {
  // The migrations as they were just before this one.
  const before = await migrationsBefore('_hardening', path.join(dir, 'before'));

  const pgliteDir = path.join(dir, 'db');
  const old = await openDatabase({ pgliteDir, migrationsFolder: before });
  await old.db.execute(sql`insert into users (firebase_uid, username, avatar, social_type) values
    ('a', ${'\u202EMal\u200Blory\uFEFF'}, 'http://example.com/a.png', 'google'),
    ('b', ${'\u200B\u2066'}, 'https://example.com/b.png', 'google'),
    ('c', ${'می\u200Cخواهم'}, null, 'google')`);
  await old.db.execute(sql`insert into uploads (id, owner_id, name, mime_type, size, storage_key) values
    ('u1', 1, ${'\u202Egpj.exe'}, 'application/octet-stream', 1, 'k1'),
    ('u2', 1, ${'\u200B'}, 'application/octet-stream', 1, 'k2')`);
  await old.close();

  const migrated = await openDatabase({ pgliteDir, migrationsFolder: MIGRATIONS });
  try {
    const users = await migrated.db.execute<{ username: string | null; avatar: string | null }>(sql`select username, avatar from users order by id`);
    expect((users as unknown as { rows: unknown[] }).rows).toEqual([
      { username: 'Mallory', avatar: null },
      { username: null, avatar: 'https://example.com/b.png' },
      { username: 'می\u200Cخواهم', avatar: null }, // ZWNJ is part of Persian words: left for the full rule
    ]);
    const uploads = await migrated.db.execute(sql`select name from uploads order by id`);
    expect((uploads as unknown as { rows: unknown[] }).rows).toEqual([{ name: 'gpj.exe' }, { name: 'file' }]);
  } finally {
    await migrated.close();
  }
});
