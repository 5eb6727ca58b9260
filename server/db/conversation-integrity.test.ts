// Conversation rows have no foreign keys (server/db/tables/messages.ts says why): the message batch is what keeps
// them pointing at real users and at their pair's newest message. These tests hold it to that,
// through refusals, blocks and account deletion, including a deletion racing a batch.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
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
  const own = await rows<{ user_id: number }>(database.db, sql`select user_id from conversations where user_id in (${a}, ${b}, ${c}, ${d})`);
  expect(own.map((row) => Number(row.user_id)).sort((x, y) => x - y)).toEqual([a, a, a, c, d].sort((x, y) => x - y));
});

it('a deletion racing a batch to that account leaves no row of the deleted account', async () => {
  const pairs = await Promise.all(Array.from({ length: 5 }, async () => [await newUser(), await newUser()] as const));
  await Promise.all(
    pairs.flatMap(([sender, doomed]) => [deleteAccount(database.db, doomed), storeMessages(database.db, [msg(sender, doomed), msg(sender, doomed)])]),
  );
  expect(await broken()).toEqual([]);
});
