// Records testing/recorded/pair-release.sql: the rows the last release that wrote only the pair
// model (commit 8e12aab) stored for the conversations migration test's story, so that test migrates
// what that release wrote, not what today's code would. Run it from a checkout of that commit, with
// this file and the same node_modules:
//   git worktree add /tmp/pair-release 8e12aab && ln -s "$PWD/node_modules" /tmp/pair-release/
//   cp -r testing/recorded /tmp/pair-release/testing/ && cd /tmp/pair-release
//   node --import tsx testing/recorded/record-pair-release.ts > <this repo>/testing/recorded/pair-release.sql
// Ids come out as 1, 2, 3… in the order below (a fresh database); the test finds messages by client id.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { deleteAccount } from '../../server/db/account-deletion';
import { setMuted } from '../../server/db/conversations';
import { applyChanges } from '../../server/db/delivery/change-batch';
import { storeMessages } from '../../server/db/delivery/message-batch';
import { openDatabase, type Db } from '../../server/db/engine/open-database';
import { rows } from '../../server/db/engine/raw-rows';
import { migrationsBefore } from '../migrations';

const LONG_AGO = 24 * 60 * 60 * 1000;
let sent = 0;

async function send(db: Db, ...pairs: [number, number][]): Promise<void> {
  for (const [senderId, recipientId] of pairs) {
    const [outcome] = await storeMessages(db, [{ senderId, recipientId, clientId: `m-${++sent}`, text: `message ${sent}` }]);
    if (!outcome || !('stored' in outcome)) throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  }
}

/**
 * A change as that release's applyChanges took it: a read named its conversation by the other
 * person (today's names it by id), so the type is its own, not today's.
 */
type PairReleaseChange =
  | { kind: 'react'; actorId: number; messageId: number; emoji: string; add: boolean }
  | { kind: 'edit'; actorId: number; messageId: number; text: string; windowMs: number }
  | { kind: 'unsend'; actorId: number; messageId: number; windowMs: number }
  | { kind: 'hide'; actorId: number; messageId: number }
  | { kind: 'read'; actorId: number; peerId: number; upTo: number | null };

async function change(db: Db, request: PairReleaseChange): Promise<void> {
  const [outcome] = await applyChanges(db, [request as unknown as Parameters<typeof applyChanges>[1][number]]);
  if (!outcome || 'refused' in outcome || 'error' in outcome) throw new Error(`change refused: ${JSON.stringify(outcome)}`);
}

/** The story: testing/previous-releases.ts tells it, and the migration tests say what each step is for. */
async function story(db: Db): Promise<void> {
  await db.execute(sql`insert into users (firebase_uid, username, social_type) values
    ('a', 'Ana', 'google'), ('b', 'Bo', 'google'), ('c', 'Cy', 'google'), ('d', 'Di', 'google'), ('e', 'Ed', 'google'), ('f', 'Fay', 'google')`);
  const [ana, bo, cy, di, ed] = [1, 2, 3, 4, 5];
  await db.execute(sql`update users set read_receipts = false where id = ${cy}`);
  await send(db, [ana, bo], [ana, bo], [ana, bo]); // m-1, m-2, m-3: ids 1–3
  await send(db, [bo, ana], [bo, ana]); // m-4, m-5
  await change(db, { kind: 'read', actorId: bo, peerId: ana, upTo: 2 });
  await change(db, { kind: 'read', actorId: ana, peerId: bo, upTo: null });
  await change(db, { kind: 'react', actorId: bo, messageId: 1, emoji: '👍', add: true });
  await change(db, { kind: 'edit', actorId: ana, messageId: 2, text: 'edited', windowMs: LONG_AGO });
  await change(db, { kind: 'hide', actorId: bo, messageId: 4 });
  await send(db, [ana, bo], [ana, bo]); // m-6, m-7
  await change(db, { kind: 'unsend', actorId: ana, messageId: 6, windowMs: LONG_AGO });
  await change(db, { kind: 'hide', actorId: bo, messageId: 7 });
  await send(db, [ana, bo]); // m-8
  await send(db, [ana, cy], [cy, ana], [ana, cy]); // m-9 … m-11
  await change(db, { kind: 'read', actorId: cy, peerId: ana, upTo: null });
  await send(db, [di, ana], [di, ana], [ana, di], [di, ana]); // m-12 … m-15
  if (!(await setMuted(db, ana, di, true))) throw new Error('not muted');
  await send(db, [ed, ana], [ana, ed], [bo, ed]); // m-16 … m-18
  await deleteAccount(db, ed);
}

// Parents before children; generated columns are left for the database to compute.
const TABLES = ['users', 'uploads', 'follows', 'blocks', 'conversations', 'messages', 'message_reactions', 'message_hidden', 'message_events'];

/** The rows as SQL any Postgres (or PGlite) on the same schema can load: one insert per table, then the identities. */
async function dump(db: Db): Promise<string> {
  const lines = [`-- Written by testing/recorded/record-pair-release.ts at commit 8e12aab (the pair model only), migrations 0000–0016.`];
  for (const table of TABLES) {
    const columns = (
      await rows<{ column_name: string }>(db, sql`select column_name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`)
    ).map((row) => `"${row.column_name}"`);
    const [data] = await rows<{ json: string | null }>(db, sql.raw(`select json_agg(t)::text as json from (select ${columns.join(', ')} from "${table}") t`));
    if (!data?.json) continue;
    lines.push(
      `insert into "${table}" (${columns.join(', ')}) overriding system value\n  select ${columns.join(', ')} from json_populate_recordset(null::"${table}", '${data.json.replaceAll("'", "''")}');`,
    );
  }
  for (const [table, column] of [['users', 'id'], ['messages', 'id']]) {
    lines.push(`select setval(pg_get_serial_sequence('${table}', '${column}'), (select max("${column}") from "${table}"));`);
  }
  return `${lines.join('\n')}\n`;
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-record-'));
try {
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db'), migrationsFolder: await migrationsBefore('_conversations_expand', path.join(dir, 'drizzle')) });
  try {
    await story(database.db);
    process.stdout.write(await dump(database.db));
  } finally {
    await database.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
