// Conversation rows have no foreign keys (server/db/tables/messages.ts says why): the message batch is what keeps
// them pointing at real users and at their pair's newest message. These tests hold it to that,
// through refusals, blocks and account deletion, including a deletion racing a batch; and the
// conversation model the batch writes beside the pairs likewise (testing/conversation-model.ts).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { testDatabase } from '../../testing/test-database';
import { deleteAccount } from './account-deletion';
import { blockUser } from './blocks';
import { storeMessages } from './delivery/message-batch';
import type { NewMessage } from './delivery/message-payload';
import { rows } from './engine/raw-rows';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();

let counter = 0;

const newUser = () => database.newUser('C');
const msg = (senderId: number, recipientId: number): NewMessage => ({ senderId, recipientId, clientId: `c-${++counter}`, text: `text ${counter}` });
const kinds = (outcomes: Awaited<ReturnType<typeof storeMessages>>) => outcomes.map((o) => ('stored' in o ? 'stored' : o.refused));

/**
 * Every conversation row that breaks what the foreign keys stood for, and more: a user or peer
 * that does not exist, a last message that does not exist, is not of the pair or is not its
 * newest, an unread count that is not the peer's unread messages; and rows of deleted accounts.
 */
const broken = () =>
  rows<Record<string, unknown>>(
    database.db,
    sql`select c.user_id, c.peer_id, c.last_message_id, c.unread_count from conversations c
      left join users u on u.id = c.user_id
      left join users p on p.id = c.peer_id
      left join messages m on m.id = c.last_message_id
      where u.id is null or p.id is null or m.id is null or u.deleted_at is not null
        or least(m.sender_id, m.recipient_id) <> least(c.user_id, c.peer_id)
        or greatest(m.sender_id, m.recipient_id) <> greatest(c.user_id, c.peer_id)
        or c.last_message_id <> (select max(id) from messages x
          where least(x.sender_id, x.recipient_id) = least(c.user_id, c.peer_id)
            and greatest(x.sender_id, x.recipient_id) = greatest(c.user_id, c.peer_id))
        or c.unread_count <> (select count(*) from messages x
          where x.sender_id = c.peer_id and x.recipient_id = c.user_id and x.read_at is null)`,
  );

it('keeps every conversation row on real users and its pair\'s newest message through refusals, blocks and deletions', async () => {
  const [a, b, c, d] = [await newUser(), await newUser(), await newUser(), await newUser()];
  expect(kinds(await storeMessages(database.db, [msg(a, b), msg(b, a), msg(a, c), msg(d, a)]))).toEqual(['stored', 'stored', 'stored', 'stored']);

  await deleteAccount(database.db, b);
  await blockUser(database.db, c, a);
  expect(
    kinds(await storeMessages(database.db, [msg(a, b), msg(a, c), msg(c, a), msg(a, 2_000_000_000), msg(2_000_000_001, a), msg(a, a), msg(a, d)])),
  ).toEqual(['recipient', 'not_allowed', 'not_allowed', 'recipient', 'sender', 'recipient', 'stored']);

  expect(await broken()).toEqual([]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
  const own = await rows<{ user_id: number }>(database.db, sql`select user_id from conversations where user_id in (${a}, ${b}, ${c}, ${d})`);
  expect(own.map((row) => Number(row.user_id)).sort((x, y) => x - y)).toEqual([a, a, a, c, d].sort((x, y) => x - y));
});

it('a deletion racing a batch to or from that account leaves no row of the deleted account', async () => {
  const pairs = await Promise.all(Array.from({ length: 5 }, async () => [await newUser(), await newUser()] as const));
  await Promise.all(
    pairs.flatMap(([sender, doomed]) => [
      deleteAccount(database.db, doomed),
      storeMessages(database.db, [msg(sender, doomed), msg(sender, doomed)]),
      storeMessages(database.db, [msg(doomed, sender)]),
    ]),
  );
  expect(await broken()).toEqual([]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

// The conversation model written beside the pairs (docs/design/conversations.md, step 2).
const conversationOf = async (a: number, b: number) =>
  (
    await rows<{ id: number; last_seq: number; last_message_id: number }>(
      database.db,
      sql`select id::int, last_seq::int, last_message_id::int from conversations_v2
        where kind = 'direct' and direct_low = ${Math.min(a, b)} and direct_high = ${Math.max(a, b)}`,
    )
  )[0];
const seqsOf = async (conversationId: number) =>
  (await rows<{ client_id: string; seq: number }>(database.db, sql`select client_id, seq::int from messages where conversation_id = ${conversationId} order by seq`)).map(
    (row) => `${row.client_id}@${row.seq}`,
  );

it('numbers each pair\'s messages in its one direct conversation, created with its first message, the head at the newest', async () => {
  const [a, b, c] = [await newUser(), await newUser(), await newUser()];
  const first = msg(a, b);
  // A batch: the pair's first messages both ways, a repeat (no seq of its own), another pair, a refusal.
  const batch = [first, msg(b, a), { ...first }, msg(a, c), msg(a, a)];
  expect(kinds(await storeMessages(database.db, batch))).toEqual(['stored', 'stored', 'stored', 'stored', 'recipient']);
  const ab = await conversationOf(a, b);
  const ac = await conversationOf(a, c);
  expect(await seqsOf(ab!.id)).toEqual([`${batch[0]!.clientId}@1`, `${batch[1]!.clientId}@2`]);
  expect(await seqsOf(ac!.id)).toEqual([`${batch[3]!.clientId}@1`]);

  // Later batches continue each conversation where it stood; a refused message takes no seq.
  await blockUser(database.db, c, a);
  const later = [msg(b, a), msg(a, c), msg(a, b)];
  expect(kinds(await storeMessages(database.db, later))).toEqual(['stored', 'not_allowed', 'stored']);
  expect(await seqsOf(ab!.id)).toEqual([`${batch[0]!.clientId}@1`, `${batch[1]!.clientId}@2`, `${later[0]!.clientId}@3`, `${later[2]!.clientId}@4`]);
  expect(await conversationOf(a, b)).toMatchObject({ id: ab!.id, last_seq: 4 });
  expect(await conversationOf(a, c)).toMatchObject({ id: ac!.id, last_seq: 1 });

  // Both members, each with a list row naming the other; only a sender "wrote".
  expect(
    await rows(database.db, sql`select m.user_id, m.wrote, a.peer_id from conversation_members m
      join account_conversations a on a.user_id = m.user_id and a.conversation_id = m.conversation_id
      where m.conversation_id = ${ac!.id} order by m.user_id`),
  ).toEqual([
    { user_id: a, wrote: true, peer_id: c },
    { user_id: c, wrote: false, peer_id: a },
  ]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('first messages crossing between two people end in one conversation', async () => {
  const pairs = await Promise.all(Array.from({ length: 4 }, async () => [await newUser(), await newUser()] as const));
  await Promise.all(pairs.flatMap(([x, y]) => [storeMessages(database.db, [msg(x, y)]), storeMessages(database.db, [msg(y, x)]), storeMessages(database.db, [msg(x, y)])]));
  for (const [x, y] of pairs) expect((await conversationOf(x, y))?.last_seq).toBe(3);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('a deleted account leaves its conversations where they stood, and nothing more is numbered for it', async () => {
  const [a, b] = [await newUser(), await newUser()];
  await storeMessages(database.db, [msg(a, b), msg(b, a)]);
  await deleteAccount(database.db, b);
  // Neither to it nor from it (a batch that waited for the deletion's lock finds the tombstone).
  expect(kinds(await storeMessages(database.db, [msg(a, b), msg(b, a)]))).toEqual(['recipient', 'sender']);
  const ab = await conversationOf(a, b);
  expect(
    await rows(database.db, sql`select m.user_id, m.left_seq::int, m.left_reason, a.left_at is not null as listed_left from conversation_members m
      join account_conversations a on a.user_id = m.user_id and a.conversation_id = m.conversation_id
      where m.conversation_id = ${ab!.id} order by m.user_id`),
  ).toEqual([
    { user_id: a, left_seq: null, left_reason: null, listed_left: false },
    { user_id: b, left_seq: 2, left_reason: 'deleted', listed_left: true },
  ]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});
