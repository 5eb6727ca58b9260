// The bulk writer of the benchmarks' seeds must leave what the send path leaves, in both models:
// the conversation model's checks (testing/conversation-model.ts) find nothing, and the send path
// carries on from it at the right seqs.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { storeMessages } from '../server/db/delivery/message-batch';
import { rows } from '../server/db/engine/raw-rows';
import { insertMessagesInBulk } from './bulk-messages';
import { conversationModelFaults } from './conversation-model';
import { testDatabase } from './test-database';

const database = testDatabase();

const seqs = (a: number, b: number) =>
  rows<{ sender_id: number; sender_seq: string | number; recipient_seq: string | number; seq: string | number; read: boolean }>(
    database.db,
    sql`select sender_id, sender_seq, recipient_seq, seq, read_at is not null as read from messages
      where least(sender_id, recipient_id) = least(${a}::int, ${b}::int) and greatest(sender_id, recipient_id) = greatest(${a}::int, ${b}::int)
      order by id`,
  );
const unread = async (user: number, peer: number) =>
  Number((await rows<{ n: number }>(database.db, sql`select unread_count as n from conversations where user_id = ${user} and peer_id = ${peer}`))[0]?.n);

it('writes messages after what the send path stored, in both models, and the send path carries on after them', async () => {
  const [a, b, c] = [await database.newUser('Bulk A'), await database.newUser('Bulk B'), await database.newUser('Bulk C')];
  await storeMessages(database.db, [{ senderId: a, recipientId: b, clientId: 'bulk-1', text: 'first' }]);

  // Three unread from a to b, two read from c to a (a conversation of their own, new), interleaved.
  const written = await database.db.transaction((tx) =>
    insertMessagesInBulk(
      tx,
      sql`select i as ord, case when i % 2 = 0 then ${c}::int else ${a}::int end as sender_id,
            case when i % 2 = 0 then ${a}::int else ${b}::int end as recipient_id, 'bulk ' || i as text,
            case when i % 2 = 0 then now() end as read_at
          from generate_series(1, 5) as i`,
      ['text', 'read_at'],
    ),
  );
  expect(written).toBe(5);
  await storeMessages(database.db, [{ senderId: b, recipientId: a, clientId: 'bulk-2', text: 'after' }]);

  // a's seqs run 1…6 over both conversations; each conversation's own seqs 1…n.
  expect((await seqs(a, b)).map((m) => [m.sender_id, Number(m.sender_seq), Number(m.recipient_seq), Number(m.seq)])).toEqual([
    [a, 1, 1, 1],
    [a, 2, 2, 2],
    [a, 4, 3, 3],
    [a, 6, 4, 4],
    [b, 5, 7, 5],
  ]);
  expect((await seqs(a, c)).map((m) => [m.sender_id, Number(m.sender_seq), Number(m.recipient_seq), Number(m.seq), m.read])).toEqual([
    [c, 1, 3, 1, true],
    [c, 2, 5, 2, true],
  ]);
  expect([await unread(b, a), await unread(a, b), await unread(a, c), await unread(c, a)]).toEqual([4, 1, 0, 0]);
  expect(await conversationModelFaults(database.db)).toEqual([]);

  // A second batch: b's earlier unread messages stay unread; a's read one from c moves a past it.
  await database.db.transaction((tx) =>
    insertMessagesInBulk(
      tx,
      sql`select 1 as ord, ${a}::int as sender_id, ${b}::int as recipient_id, null::timestamptz as read_at
          union all select 2, ${c}::int, ${a}::int, now()`,
      ['read_at'],
    ),
  );
  expect([await unread(b, a), await unread(a, b), await unread(a, c), await unread(c, a)]).toEqual([5, 1, 0, 0]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('refuses a message to oneself and writes nothing of its batch', async () => {
  const a = await database.newUser('Bulk self');
  const before = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from messages`);
  await expect(
    database.db.transaction((tx) =>
      insertMessagesInBulk(tx, sql`select i as ord, ${a}::int as sender_id, ${a}::int as recipient_id from generate_series(1, 2) as i`),
    ),
  ).rejects.toThrow('row 1: a message needs two different people');
  expect(await rows<{ n: number }>(database.db, sql`select count(*)::int as n from messages`)).toEqual(before);
});
