// The conversation stream's reads (conversation-stream.ts) against the database: the member's
// window bounds what they read, and a page larger than one read is read in turn without a gap.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { directConversationId, insertMessage } from '../../../testing/database';
import { insertMessagesInBulk } from '../../../testing/bulk-messages';
import { testDatabase } from '../../../testing/test-database';
import { listConversationAfter, memberWindow, STREAM_READ_ITEMS } from './conversation-stream';

const database = testDatabase();

const send = (senderId: number, recipientId: number, text: string) =>
  insertMessage(database.db, { senderId, recipientId, clientId: `${senderId}-${text}-${Math.random()}`, text });

it('reads only inside the member’s window: after where they joined, up to where they left', async () => {
  const [ana, bo, cy] = [await database.newUser('Ana'), await database.newUser('Bo'), await database.newUser('Cy')];
  for (let i = 1; i <= 6; i++) await send(i % 2 ? ana : bo, i % 2 ? bo : ana, `m${i}`);
  const conversation = await directConversationId(database.db, ana, bo);
  // Ana has read her own first message, sent before anything came to her.
  expect(await memberWindow(database.db, ana, conversation)).toEqual({ conversationId: conversation, userId: ana, joinedSeq: 0, end: 6, readSeq: 1 });
  // Not a member, and no such conversation: nothing, the same way.
  expect(await memberWindow(database.db, cy, conversation)).toBeNull();
  expect(await listConversationAfter(database.db, cy, conversation, 0, 100)).toBeNull();
  expect(await listConversationAfter(database.db, ana, conversation + 1000, 0, 100)).toBeNull();

  // A window as a group's join and leave will set it (design 3.9): seqs 3…4 only, whatever the cursor.
  await database.db.execute(sql`update conversation_members set joined_seq = 2, left_seq = 4 where conversation_id = ${conversation} and user_id = ${bo}`);
  const windowed = await listConversationAfter(database.db, bo, conversation, 0, 100);
  expect(windowed?.messages.map((message) => message.text)).toEqual(['m3', 'm4']);
  expect(windowed).toMatchObject({ through: 4, end: 4, hasMore: false });
  expect(await listConversationAfter(database.db, bo, conversation, 4, 100)).toMatchObject({ messages: [], through: 4, end: 4 });
  // The other member reads it whole.
  expect((await listConversationAfter(database.db, ana, conversation, 0, 100))?.messages.map((message) => message.seq)).toEqual([1, 2, 3, 4, 5, 6]);
});

it('reads a page larger than one read in turn, in order, and says where it stopped', async () => {
  const [ana, bo] = [await database.newUser('Ana'), await database.newUser('Bo')];
  const total = STREAM_READ_ITEMS * 2 + 30;
  await database.db.transaction((tx) =>
    insertMessagesInBulk(tx, sql`select i as ord, case when i % 2 = 0 then ${ana}::int else ${bo}::int end as sender_id,
      case when i % 2 = 0 then ${bo}::int else ${ana}::int end as recipient_id from generate_series(1, ${total}) as i`),
  );
  const conversation = await directConversationId(database.db, ana, bo);
  const first = await listConversationAfter(database.db, ana, conversation, 0, STREAM_READ_ITEMS * 2 + 10);
  expect(first?.messages.map((message) => message.seq)).toEqual(Array.from({ length: STREAM_READ_ITEMS * 2 + 10 }, (_, i) => i + 1));
  expect(first).toMatchObject({ through: STREAM_READ_ITEMS * 2 + 10, end: total, hasMore: true });
  const rest = await listConversationAfter(database.db, ana, conversation, first!.through, 500);
  expect(rest?.messages.map((message) => message.seq)).toEqual(Array.from({ length: 20 }, (_, i) => STREAM_READ_ITEMS * 2 + 11 + i));
  expect(rest).toMatchObject({ through: total, hasMore: false });
});
