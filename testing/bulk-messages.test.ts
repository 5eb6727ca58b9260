// The bulk writer of the benchmarks' seeds must leave what the send path leaves: the conversation
// model's checks (testing/conversation-model.ts) find nothing, and the send path carries on from it
// at the right seqs.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { storeMessages } from '../server/db/delivery/message-batch';
import { rows } from '../server/db/engine/raw-rows';
import { unreadFromOrdinalsSql } from '../server/db/unread';
import { insertMessagesInBulk } from './bulk-messages';
import { conversationModelFaults } from './conversation-model';
import { testDatabase } from './test-database';

const database = testDatabase();

const seqs = (a: number, b: number) =>
  rows<{ sender_id: number; seq: string | number }>(
    database.db,
    sql`select sender_id, seq from messages
      where least(sender_id, recipient_id) = least(${a}::int, ${b}::int) and greatest(sender_id, recipient_id) = greatest(${a}::int, ${b}::int)
      order by id`,
  );
/** `user`'s unread count of their conversation with `peer`, as the list counts it. */
const unread = async (user: number, peer: number) =>
  Number(
    (
      await rows<{ n: number }>(
        database.db,
        sql`select ${sql.raw(unreadFromOrdinalsSql('cm', 'c'))} as n from account_conversations a
          join conversation_members cm on cm.conversation_id = a.conversation_id and cm.user_id = a.user_id
          join conversations_v2 c on c.id = a.conversation_id
          where a.user_id = ${user} and a.peer_id = ${peer}`,
      )
    )[0]?.n,
  );

it('writes messages after what the send path stored, and the send path carries on after them', async () => {
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

  // Each conversation's own seqs 1…n, the send path's after the seed's.
  expect((await seqs(a, b)).map((m) => [m.sender_id, Number(m.seq)])).toEqual([
    [a, 1],
    [a, 2],
    [a, 3],
    [a, 4],
    [b, 5],
  ]);
  expect((await seqs(a, c)).map((m) => [m.sender_id, Number(m.seq)])).toEqual([
    [c, 1],
    [c, 2],
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
