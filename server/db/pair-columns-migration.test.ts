// The pair model no longer written (0022) on a database the previous release wrote, on both
// engines: the recorded story (testing/previous-releases.ts), then what a node of the previous
// release (sendWithOrdinals: both models) writes during the rollout. Nothing of it is lost or
// read differently, and this release's writers carry on after it without the pair's columns.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { describeMigration, MIGRATIONS, withDatabase } from '../../testing/migrations';
import { loadRecorded, pairModel, sendWithOrdinals, STORY } from '../../testing/previous-releases';
import { applyChanges } from './delivery/change-batch';
import { listConversationSummaries } from './delivery/conversation-summaries';
import { listConversationAfter } from './delivery/conversation-stream';
import { storeMessages } from './delivery/message-batch';
import type { StoredMessage } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { countUnread } from './messages';

const { ana, bo, cy, di } = STORY;

/** What the people of the story see: each one's list, unread total and every conversation's stream. */
async function whatTheySee(db: Db) {
  const seen: Record<number, unknown> = {};
  for (const userId of [ana, bo, cy, di]) {
    const list = (await listConversationSummaries(db, userId, null, 50)).results;
    const streams = await Promise.all(list.map((row) => listConversationAfter(db, userId, row.conversation_id, 0, 500)));
    seen[userId] = { list, unread: await countUnread(db, userId), streams };
  }
  return seen;
}

describeMigration(['_conversations_expand', '_pair_columns_optional'], ({ engine, before }) => {
  it('keeps what the previous release wrote and how it reads, and the writers carry on without the pair model', { timeout: 240_000 }, async () => {
    const options = await engine().fresh();
    await withDatabase({ ...options, migrationsFolder: before('_conversations_expand') }, loadRecorded);
    // 0017–0021 ran: the previous release's nodes write both models, as during the rollout.
    const previous = await withDatabase({ ...options, migrationsFolder: before('_pair_columns_optional') }, async (db) => {
      await sendWithOrdinals(db, bo, ana, 'old-1');
      await sendWithOrdinals(db, ana, di, 'old-2');
      return { pairs: await pairModel(db), seen: await whatTheySee(db) };
    });

    await withDatabase({ ...options, migrationsFolder: MIGRATIONS }, async (db) => {
      // Every row as it was, and every read answers as before.
      expect(await pairModel(db)).toEqual(previous.pairs);
      expect(await whatTheySee(db)).toEqual(previous.seen);
      expect(await conversationModelFaults(db)).toEqual([]);
      expect(await rows(db, sql`select indexname from pg_indexes where indexname = 'messages_unread_by_pair_idx'`)).toEqual([]);
      // A group's messages will have no recipient, and no message now has the pair's seqs.
      expect(await rows(db, sql`select column_name, is_nullable from information_schema.columns
        where table_name = 'messages' and column_name in ('recipient_id', 'sender_seq', 'recipient_seq') order by column_name`)).toEqual([
        { column_name: 'recipient_id', is_nullable: 'YES' },
        { column_name: 'recipient_seq', is_nullable: 'YES' },
        { column_name: 'sender_seq', is_nullable: 'YES' },
      ]);

      // This release's send and read write the conversation model alone, after the old rows.
      const [sent] = await storeMessages(db, [{ senderId: ana, recipientId: bo, clientId: 'new-1', text: 'new-1' }]);
      expect(sent).toMatchObject({ stored: { created: true, message: { text: 'new-1' } } });
      expect(await rows(db, sql`select sender_seq, recipient_seq, read_at from messages where client_id = 'new-1'`)).toEqual([
        { sender_seq: null, recipient_seq: null, read_at: null },
      ]);
      const conversationId = (sent as { stored: StoredMessage }).stored.message.conversation_id;
      const [read] = await applyChanges(db, [{ kind: 'read', actorId: bo, conversationId, upTo: null }]);
      expect(read).toMatchObject({ pushes: { item: { item: { kind: 'read', unread_count: 0 } } } });
      expect(await countUnread(db, bo)).toBe(0);
      // The pair model's rows stay as the previous release left them.
      const now = await pairModel(db);
      expect(now.conversations).toEqual(previous.pairs.conversations);
      expect(now.lastSeqs).toEqual(previous.pairs.lastSeqs);
      expect(now.messages.slice(0, previous.pairs.messages.length)).toEqual(previous.pairs.messages);
      expect(await conversationModelFaults(db)).toEqual([]);
      // A node of the previous release still writing, after this one's rows: the model holds, and
      // this release's writer carries on after it.
      await sendWithOrdinals(db, bo, ana, 'old-after');
      await storeMessages(db, [{ senderId: ana, recipientId: bo, clientId: 'new-2', text: 'new-2' }]);
      expect(await rows(db, sql`select client_id, seq::int from messages where conversation_id = ${conversationId} order by seq desc limit 3`)).toEqual([
        { client_id: 'new-2', seq: expect.any(Number) },
        { client_id: 'old-after', seq: expect.any(Number) },
        { client_id: 'new-1', seq: expect.any(Number) },
      ]);
      expect(await conversationModelFaults(db)).toEqual([]);
    });
  });
});
