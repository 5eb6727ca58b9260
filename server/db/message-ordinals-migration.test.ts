// The ordinals made required (0021) on a database that nodes of two releases wrote during a
// rollout, on both engines: 0020's release (which numbers messages) and 0019's (no ordinals),
// interleaved after the recorded story (testing/previous-releases.ts).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { describeMigration, MIGRATIONS, withDatabase } from '../../testing/migrations';
import { loadRecorded, pairModel, sendWithOrdinals, sendWithoutOrdinals, STORY } from '../../testing/previous-releases';
import { storeMessages } from './delivery/message-batch';
import { rows } from './engine/raw-rows';

describeMigration(['_conversations_expand', '_message_ordinals_required'], ({ engine, before }) => {
  it('numbers the ordinals of what nodes of the previous release stored beside this one, and makes them required', { timeout: 240_000 }, async () => {
    const options = await engine().fresh();
    const { ana, bo, di } = STORY;
    await withDatabase({ ...options, migrationsFolder: before('_conversations_expand') }, loadRecorded);
    const stored = await withDatabase({ ...options, migrationsFolder: before('_message_ordinals_required') }, async (db) => {
      // 0017–0020 ran. The release that numbers messages (0020's: sendWithOrdinals) and the
      // release before it (sendWithoutOrdinals: no ordinals, the head's count not moved) store
      // messages interleaved in Ana and Bo's conversation; an old node writes in Ana and Di's.
      await sendWithOrdinals(db, ana, bo, 'new-1');
      const old = await sendWithoutOrdinals(db, bo, ana, 'old-1');
      await sendWithOrdinals(db, bo, ana, 'new-2');
      await sendWithoutOrdinals(db, ana, bo, 'old-2');
      await sendWithOrdinals(db, ana, bo, 'new-3');
      await sendWithoutOrdinals(db, di, ana, 'old-3');
      // An old node's message, unread and then unsent: the counts leave it out.
      await db.execute(sql`update messages set deleted_at = now(), text = '' where id = ${old}`);
      await db.execute(sql`update conversations set unread_count = unread_count - 1 where user_id = ${ana} and peer_id = ${bo}`);
      expect(await rows(db, sql`select count(*)::int as unnumbered from messages where ordinal is null`)).toEqual([{ unnumbered: 3 }]);
      return pairModel(db);
    });

    await withDatabase({ ...options, migrationsFolder: MIGRATIONS }, async (db) => {
      // Nothing else moved; every ordinal is its place again, every head's count its messages, and
      // the counts from them are the pair counters (the model checker holds all three).
      expect(await pairModel(db)).toEqual(stored);
      expect(await conversationModelFaults(db)).toEqual([]);
      const [anaBo] = await rows<{ id: number; message_count: number }>(
        db,
        sql`select id::int, message_count::int from conversations_v2 where direct_low = ${ana} and direct_high = ${bo}`,
      );
      const theirs = await rows<{ client_id: string; ordinal: number; sender_ordinal: number }>(
        db,
        sql`select client_id, ordinal::int, sender_ordinal::int from messages where conversation_id = ${anaBo!.id} order by seq`,
      );
      expect(theirs.map((message) => message.ordinal)).toEqual(theirs.map((_, index) => index + 1));
      expect(anaBo!.message_count).toBe(theirs.length);
      expect(theirs.slice(-5).map((message) => message.client_id)).toEqual(['new-1', 'old-1', 'new-2', 'old-2', 'new-3']);
      // From now on every message has its ordinals, and this release's writer carries on after them.
      await expect(db.execute(sql`update messages set ordinal = null where client_id = 'new-1'`)).rejects.toThrow();
      await expect(db.execute(sql`update conversations_v2 set message_count = null where id = ${anaBo!.id}`)).rejects.toThrow();
      await storeMessages(db, [{ senderId: bo, recipientId: ana, clientId: 'after', text: 'after' }]);
      expect(await rows(db, sql`select ordinal::int from messages where client_id = 'after'`)).toEqual([{ ordinal: theirs.length + 1 }]);
      expect(await conversationModelFaults(db)).toEqual([]);
    });
  });
});
