// The conversation model's backfill run again (0019) on a database that nodes of two releases
// wrote during a rollout, on both engines: 0017's release (both models) and the one before it
// (the pairs only), interleaved after the recorded story (testing/previous-releases.ts). The
// migration fills what the old nodes left out, renumbers, and makes each message's place required.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { describeMigration, MIGRATIONS, withDatabase } from '../../testing/migrations';
import { loadRecorded, pairModel, reactBothWays, sendBothWays, sendTheOldWay, STORY } from '../../testing/previous-releases';
import { storeMessages } from './delivery/message-batch';
import { rows } from './engine/raw-rows';

describeMigration(['_conversations_expand', '_conversations_backfill_again'], ({ engine, before }) => {
  it('fills what nodes of the previous release wrote beside this one, renumbers, and makes the places required', { timeout: 240_000 }, async () => {
    const options = await engine().fresh();
    const { ana, bo, cy, di, fay } = STORY;
    await withDatabase({ ...options, migrationsFolder: before('_conversations_expand') }, loadRecorded);
    const { stored, oldToAna } = await withDatabase({ ...options, migrationsFolder: before('_conversations_backfill_again') }, async (db) => {
      // 0017 and 0018 ran; this release's nodes write both models, the previous release's nodes
      // only the pairs, interleaved: Bo and Ana's conversation gets messages of both kinds.
      await sendBothWays(db, ana, bo, 'new-1');
      const oldToAna = await sendTheOldWay(db, bo, ana, 'old-1');
      const placed = await sendBothWays(db, ana, bo, 'new-2');
      const oldToBo = await sendTheOldWay(db, ana, bo, 'old-2');
      // A pair's first messages, from an old node: no conversation for it yet.
      await sendTheOldWay(db, fay, di, 'old-3');
      await sendTheOldWay(db, di, fay, 'old-4');
      // A change through this release (a conversation event and a version), then old nodes' changes
      // in the pairs only: Ana reads everything from Bo, Bo hides the old message he has not read,
      // reacts to one, and mutes Ana; Cy's account is deleted by an old node.
      await reactBothWays(db, bo, placed, '🎉');
      expect(await rows(db, sql`select count(*)::int as changes from conversation_events`)).toEqual([{ changes: 1 }]);
      await db.execute(sql`update messages set read_at = now() where recipient_id = ${ana} and sender_id = ${bo} and read_at is null`);
      await db.execute(sql`update conversations set unread_count = 0 where user_id = ${ana} and peer_id = ${bo}`);
      await db.execute(sql`insert into message_hidden (user_id, message_id) values (${bo}, ${oldToBo})`);
      await db.execute(sql`update conversations set unread_count = unread_count - 1 where user_id = ${bo} and peer_id = ${ana}`);
      await db.execute(sql`insert into message_reactions (message_id, user_id, emoji) values (${oldToAna}, ${bo}, '👍')`);
      await db.execute(sql`update conversations set muted = true where user_id = ${bo} and peer_id = ${ana}`);
      await db.execute(sql`delete from conversations where user_id = ${cy}`);
      await db.execute(sql`update users set deleted_at = now(), is_active = false where id = ${cy}`);
      // The conversation model no longer mirrors the pairs (the checker reads columns of later releases, so it is not run here).
      expect(await rows(db, sql`select count(*)::int as unplaced from messages where conversation_id is null`)).toEqual([{ unplaced: 4 }]);
      return { stored: await pairModel(db), oldToAna };
    });

    await withDatabase({ ...options, migrationsFolder: MIGRATIONS }, async (db) => {
      // The pairs are as they were; the conversation model mirrors them again, whole.
      expect(await pairModel(db)).toEqual(stored);
      expect(await conversationModelFaults(db)).toEqual([]);
      const messages = await rows<{ id: number; client_id: string; conversation_id: number; seq: number; version: number }>(
        db,
        sql`select id::int, client_id, conversation_id::int, seq::int, version::int from messages order by id`,
      );
      // Ana and Bo's: every message 1…n in the order stored, old and new alike, each at its seq.
      const [anaBo] = await rows<{ id: number }>(db, sql`select id::int from conversations_v2 where direct_low = ${ana} and direct_high = ${bo}`);
      const theirs = messages.filter((message) => message.conversation_id === anaBo!.id);
      expect(theirs.map((message) => message.seq)).toEqual(theirs.map((_, index) => index + 1));
      expect(theirs.slice(-4).map((message) => message.client_id)).toEqual(['new-1', 'old-1', 'new-2', 'old-2']);
      expect(messages.every((message) => message.version === message.seq)).toBe(true);
      // Di and Fay's conversation, made for the old node's messages.
      expect(await rows(db, sql`select c.last_seq::int, count(*)::int as members from conversations_v2 c
        join conversation_members m on m.conversation_id = c.id where c.direct_low = ${di} and c.direct_high = ${fay} group by c.last_seq`)).toEqual([{ last_seq: 2, members: 2 }]);
      // The streams start again from the rows; the receipts, mutes and the deletion are the pairs'.
      expect(await rows(db, sql`select (select count(*)::int from conversation_events) as changes, (select count(*)::int from account_events) as items,
        (select max(account_seq)::int from users) as account_seq`)).toEqual([{ changes: 0, items: 0, account_seq: 0 }]);
      expect(await rows(db, sql`select muted from conversation_members where conversation_id = ${anaBo!.id} and user_id = ${bo}`)).toEqual([{ muted: true }]);
      expect(await rows(db, sql`select count(*)::int as left from conversation_members where user_id = ${cy} and left_reason = 'deleted'`)).toEqual([{ left: 1 }]);

      // From now on every message, reaction and hidden message has its place, one message per seq.
      await expect(db.execute(sql`insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq) values (${ana}, ${bo}, 'no-place', 'x', 1000, 1000)`)).rejects.toThrow();
      await expect(db.execute(sql`update messages set seq = 1 where id = ${theirs.at(-1)!.id}`)).rejects.toThrow();
      await expect(db.execute(sql`insert into message_hidden (user_id, message_id) values (${ana}, ${oldToAna})`)).rejects.toThrow();
      // And this release's writer carries on at the renumbered heads.
      await storeMessages(db, [{ senderId: bo, recipientId: ana, clientId: 'after', text: 'after' }]);
      expect(await rows(db, sql`select seq::int from messages where client_id = 'after'`)).toEqual([{ seq: theirs.length + 1 }]);
      expect(await conversationModelFaults(db)).toEqual([]);
    });
  });
});
