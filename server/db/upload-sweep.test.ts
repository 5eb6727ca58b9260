// The sweeper of unattached uploads against a real (throwaway) Postgres, where transactions really
// run side by side: two sweepers never take one row, and a send attaching an upload at the moment
// it is swept ends either with the upload kept or the send refused, never pointing at nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../testing/postgres';
import { waitUntil, within } from '../../testing/wait';
import { storeMessages } from './delivery/message-batch';
import { openDatabase, type Database } from './engine/open-database';
import { messages, uploadReservations, uploads } from './schema';
import { seedUsers, type SeededUser } from '../../testing/seed';
import { deleteAccount } from './account-deletion';
import { completeUpload, RESERVATION_TTL_MS, uploadUsage } from './upload-quota';
import { deleteStaleReservations, deleteUnattachedUploads } from './upload-sweep';

let dir: string;
let postgres: ThrowawayPostgres;
let nodeA: Database;
let nodeB: Database;
/** A third connection, for transactions this test holds open by hand. */
let manual: pg.Pool;
let alice: SeededUser;
let bob: SeededUser;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-sweep-'));
  postgres = await startPostgres(path.join(dir, 'pg'));
  nodeA = await openDatabase({ databaseUrl: postgres.url });
  nodeB = await openDatabase({ databaseUrl: postgres.url });
  manual = new pg.Pool({ connectionString: postgres.url });
  // As the app's pools do (open-database.ts): a connection closing as PostgreSQL stops is not a failure.
  manual.on('error', () => {});
  [alice, bob] = (await seedUsers(nodeA.db, { count: 2, prefix: 'sweep' })) as [SeededUser, SeededUser];
}, 120_000);
afterAll(async () => {
  await manual?.end();
  await nodeA?.close();
  await nodeB?.close();
  await postgres?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const DAY_MS = 86_400_000;
const cutoff = () => new Date(Date.now() - DAY_MS);

/** Uploads of alice's made two days ago and never attached. */
async function oldUploads(count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, () => ({
    ownerId: alice.id,
    name: 'old.txt',
    mimeType: 'text/plain',
    size: 10,
    storageKey: randomBytes(12).toString('base64url'),
    createdAt: new Date(Date.now() - 2 * DAY_MS),
  }));
  return (await nodeA.db.insert(uploads).values(rows).returning({ id: uploads.id })).map((row) => row.id);
}

/** Transactions waiting for a lock right now (other than ours). */
async function lockWaits(): Promise<number> {
  const { rows } = await manual.query<{ n: string }>(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock'`);
  return Number(rows[0]?.n);
}

it('shares the rows out between sweepers on several nodes: none is taken twice, none is missed', async () => {
  const ids = await oldUploads(250);
  const taken: string[] = [];
  const sweepAll = async (node: Database) => {
    for (;;) {
      const swept = await deleteUnattachedUploads(node.db, cutoff(), 20);
      taken.push(...swept.map((upload) => upload.id));
      if (swept.length === 0) return;
    }
  };
  await Promise.all([sweepAll(nodeA), sweepAll(nodeB)]);
  expect(taken.length).toBe(new Set(taken).size);
  expect(new Set(taken)).toEqual(new Set(ids));
});

it('leaves alone an upload a send holds, and never takes it once the send has attached it', async () => {
  const [id] = (await oldUploads(1)) as [string];
  // A message batch that has read the upload (FOR SHARE, as findUploads does) and not yet committed.
  const batch = await manual.connect();
  try {
    await batch.query('begin');
    await batch.query('select * from uploads where id = $1 for share', [id]);
    // Answered at once, without the row: SKIP LOCKED, not a wait for the batch.
    expect(await within(10_000, deleteUnattachedUploads(nodeA.db, cutoff(), 100), 'the sweeper to pass the held row')).toEqual([]);
    await batch.query(
      `insert into conversations_v2 (kind, direct_low, direct_high, member_count) values ('direct', least($1::int, $2::int), greatest($1::int, $2::int), 2)
       on conflict (direct_low, direct_high) where kind = 'direct' do nothing`,
      [alice.id, bob.id],
    );
    await batch.query(
      `insert into messages (sender_id, recipient_id, client_id, text, attachment_id, sender_seq, recipient_seq, conversation_id, seq, version, ordinal, sender_ordinal)
       select $1, $2, $3, '', $4, 1000, 1000, id, 1000, 1000, 1000, 1000 from conversations_v2
       where kind = 'direct' and direct_low = least($1::int, $2::int) and direct_high = greatest($1::int, $2::int)`,
      [alice.id, bob.id, randomUUID(), id],
    );
    await batch.query('update uploads set attached_at = now() where id = $1', [id]);
    await batch.query('commit');
  } finally {
    batch.release();
  }
  expect(await deleteUnattachedUploads(nodeA.db, cutoff(), 100)).toEqual([]);
  expect(await nodeA.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id))).toEqual([{ id }]);
});

it('refuses a send whose upload the sweeper deletes under it, and stores nothing pointing at it', async () => {
  const [id] = (await oldUploads(1)) as [string];
  // The sweeper has locked the row (FOR UPDATE, as deleteUnattachedUploads does) and not yet deleted it.
  const sweeper = await manual.connect();
  try {
    await sweeper.query('begin');
    await sweeper.query('select id from uploads where id = $1 for update', [id]);
    const clientId = randomUUID();
    const send = storeMessages(nodeB.db, [{ senderId: alice.id, recipientId: bob.id, clientId, text: '', attachmentId: id }]);
    // The send reaches the row and waits for the sweeper's lock.
    await waitUntil(async () => (await lockWaits()) > 0, { timeoutMs: 10_000, what: 'the send to wait for the row' });
    await sweeper.query('delete from uploads where id = $1', [id]);
    await sweeper.query('commit');
    expect(await send).toEqual([{ refused: 'attachment' }]);
    expect(await nodeA.db.select().from(messages).where(eq(messages.clientId, clientId))).toEqual([]);
  } finally {
    sweeper.release();
  }
  const dangling = await nodeA.db.execute(sql`select count(*)::int as n from messages m where m.attachment_id is not null and not exists (select 1 from uploads u where u.id = m.attachment_id)`);
  expect((dangling as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
});

it('forgets what an upload cut off by a dead node held: it stops counting, and the sweeper removes it', async () => {
  const [carol] = (await seedUsers(nodeA.db, { count: 1, prefix: 'sweep-dead' })) as [SeededUser];
  const longAgo = new Date(Date.now() - RESERVATION_TTL_MS - 60_000);
  await nodeA.db.insert(uploadReservations).values([
    { userId: carol.id, bytes: 700, createdAt: longAgo },
    { userId: carol.id, bytes: 50 },
  ]);
  expect(await uploadUsage(nodeA.db, carol.id, 1_000)).toEqual({ usedBytes: 50, quotaBytes: 1_000 });
  expect(await deleteStaleReservations(nodeB.db)).toBe(1);
  expect((await nodeA.db.select({ bytes: uploadReservations.bytes }).from(uploadReservations).where(eq(uploadReservations.userId, carol.id)))).toEqual([{ bytes: 50 }]);
});

it('stores no upload whose account was deleted while it was in flight, and leaves one it did store to the deletion', async () => {
  const [dan, erin] = (await seedUsers(nodeA.db, { count: 2, prefix: 'sweep-deleted' })) as [SeededUser, SeededUser];
  const upload = (ownerId: number) => ({ ownerId, name: 'a.txt', mimeType: 'text/plain', size: 1, width: null, height: null, storageKey: randomUUID() });
  await deleteAccount(nodeA.db, dan.id);
  expect(await completeUpload(nodeA.db, null, upload(dan.id))).toBeNull();
  expect(await nodeA.db.select().from(uploads).where(eq(uploads.ownerId, dan.id))).toEqual([]);

  const stored = await completeUpload(nodeA.db, null, upload(erin.id));
  expect(await deleteAccount(nodeA.db, erin.id)).toEqual({ storageKeys: [stored!.storageKey] });
});

