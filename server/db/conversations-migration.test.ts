// The conversation model's expand migration (0017) on a database the previous release wrote, on
// both engines: the recorded rows of the release before conversations (testing/previous-releases.ts
// tells their story), the migration adds the conversation model beside them, and what the pair
// model answers (order, unread counts, receipts, mutes, reactions, hidden messages, a deleted
// account) is what the new rows say.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { describeMigration, MIGRATIONS, withDatabase } from '../../testing/migrations';
import { loadRecorded, pairModel, STORY } from '../../testing/previous-releases';
import { storeMessages } from './delivery/message-batch';
import { rows } from './engine/raw-rows';

describeMigration(['_conversations_expand'], ({ engine, before }) => {
  it('gives every pair with messages a direct conversation whose members, positions and heads answer as the pairs did', { timeout: 240_000 }, async () => {
    const options = await engine().fresh();
    const { ana, bo, cy, di, ed, fay } = STORY;
    const stored = await withDatabase({ ...options, migrationsFolder: before('_conversations_expand') }, async (db) => {
      await loadRecorded(db);
      return pairModel(db);
    });

    await withDatabase({ ...options, migrationsFolder: MIGRATIONS }, async (db) => {
      // Nothing of the pair model moved.
      expect(await pairModel(db)).toEqual(stored);

      // One direct conversation per pair, numbered in the order the pairs first wrote.
      const heads = await rows<{ id: number; direct_low: number; direct_high: number }>(db, sql`select id::int, kind, direct_low, direct_high, last_seq::int, last_message_seq::int, last_message_id::int, member_count,
        changed_xid is not null as changed from conversations_v2 order by id`);
      const pairs: [number, number][] = [[ana, bo], [ana, cy], [ana, di], [ana, ed], [bo, ed]];
      expect(heads.map((head) => [head.direct_low, head.direct_high])).toEqual(pairs);
      for (const head of heads) expect(head).toMatchObject({ kind: 'direct', member_count: 2, changed: true });

      // Each conversation's messages are 1…n in id order, each message's version its seq; the head is the newest.
      const messages = await rows<{ id: number; sender_id: number; recipient_id: number; conversation_id: number; seq: number; version: number }>(
        db,
        sql`select id::int, sender_id, recipient_id, conversation_id::int, seq::int, version::int from messages order by id`,
      );
      for (const head of heads) {
        const own = messages.filter((message) => message.conversation_id === head.id);
        expect(own.every((message) => [message.sender_id, message.recipient_id].sort((x, y) => x - y).join() === [head.direct_low, head.direct_high].join())).toBe(true);
        expect(own.map((message) => message.seq)).toEqual(own.map((_, index) => index + 1));
        expect(own.every((message) => message.version === message.seq)).toBe(true);
        expect(head).toMatchObject({ last_seq: own.length, last_message_seq: own.length, last_message_id: own.at(-1)!.id });
      }
      expect(messages.every((message) => message.conversation_id !== null)).toBe(true);
      // Each message's ordinals (0020): its place among the conversation's messages and among its
      // sender's there, unsent ones counted; each head's count its messages. Ana and Bo's: Ana
      // m-1…m-3, Bo m-4 and m-5, Ana m-6 (unsent), m-7 and m-8.
      const ordinals = await rows<{ ordinal: number; sender_ordinal: number }>(db, sql`select ordinal::int, sender_ordinal::int from messages
        where conversation_id = ${heads[0]!.id} order by seq`);
      expect(ordinals.map((row) => row.ordinal)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(ordinals.map((row) => row.sender_ordinal)).toEqual([1, 2, 3, 1, 2, 4, 5, 6]);
      expect(await rows(db, sql`select message_count::int from conversations_v2 order by id`)).toEqual(
        heads.map((head) => ({ message_count: messages.filter((message) => message.conversation_id === head.id).length })),
      );

      // Each side's unread count, derived from its position, is the pair model's counter; mutes carried over.
      const derived = await rows<{ user_id: number; peer_id: number; muted: boolean; unread: number }>(db, sql`
        select mb.user_id, ac.peer_id, mb.muted, count(m.id)::int as unread
        from conversation_members mb
        join conversations_v2 c on c.id = mb.conversation_id
        join account_conversations ac on ac.user_id = mb.user_id and ac.conversation_id = mb.conversation_id
        left join messages m on m.conversation_id = mb.conversation_id and m.seq > mb.read_seq and m.seq <= coalesce(mb.left_seq, c.last_seq)
          and m.sender_id <> mb.user_id and m.deleted_at is null
          and not exists (select 1 from message_hidden h where h.user_id = mb.user_id and h.message_id = m.id)
        where mb.left_at is null
        group by mb.user_id, ac.peer_id, mb.muted order by mb.user_id, ac.peer_id`);
      expect(derived).toEqual(stored.conversations.map((row) => ({ user_id: row.user_id, peer_id: row.peer_id, muted: row.muted, unread: row.unread_count })));
      expect(derived.find((row) => row.user_id === bo && row.peer_id === ana)).toMatchObject({ unread: 2 });
      expect(derived.find((row) => row.user_id === ana && row.peer_id === di)).toMatchObject({ unread: 3, muted: true });

      // Receipts: the newest message each member was seen reading, none where receipts were off.
      const members = await rows<{ conversation_id: number; user_id: number }>(db, sql`select conversation_id::int, user_id, role, read_seq::int, seen_seq::int, seen_at is not null as seen, wrote, joined_seq::int, left_seq::int, left_reason
        from conversation_members order by conversation_id, user_id`);
      const seqOf = (id: number) => messages.find((message) => message.id === id)!.seq;
      const member = (conversation: number, user: number) => members.find((row) => row.conversation_id === heads[conversation]!.id && row.user_id === user);
      expect(member(0, bo)).toMatchObject({ role: 'member', read_seq: seqOf(2), seen_seq: seqOf(2), seen: true, wrote: true, joined_seq: 0, left_seq: null });
      expect(member(0, ana)).toMatchObject({ read_seq: 8, seen_seq: seqOf(5), seen: true, wrote: true });
      expect(member(1, cy)).toMatchObject({ read_seq: 3, seen_seq: 0, seen: false, wrote: true });
      expect(member(2, ana)).toMatchObject({ read_seq: 0, wrote: true });
      // The deleted account's memberships ended where the conversations stood; the other side's go on.
      const deletedAt = (await rows<{ deleted_at: unknown }>(db, sql`select deleted_at from users where id = ${ed}`))[0]!.deleted_at;
      expect(member(3, ed)).toMatchObject({ left_seq: 2, left_reason: 'deleted', wrote: true });
      expect(member(4, ed)).toMatchObject({ left_seq: 1, left_reason: 'deleted', wrote: false });
      expect(member(3, ana)).toMatchObject({ left_seq: null, left_reason: null });
      expect(await rows(db, sql`select left_at from account_conversations where user_id = ${ed}`)).toEqual([{ left_at: deletedAt }, { left_at: deletedAt }]);

      // Every account's list names each conversation once, with its peer.
      const lists = await rows(db, sql`select user_id, peer_id, kind from account_conversations order by user_id, peer_id`);
      expect(lists).toEqual(pairs.flatMap(([low, high]) => [{ user_id: low, peer_id: high, kind: 'direct' }, { user_id: high, peer_id: low, kind: 'direct' }])
        .sort((x, y) => x.user_id - y.user_id || x.peer_id - y.peer_id));

      // Reactions and hidden messages name their message's conversation.
      expect(await rows(db, sql`select count(*)::int as wrong from message_reactions r join messages m on m.id = r.message_id where r.conversation_id is distinct from m.conversation_id`)).toEqual([{ wrong: 0 }]);
      expect(await rows(db, sql`select count(*)::int as wrong from message_hidden h join messages m on m.id = h.message_id where h.conversation_id is distinct from m.conversation_id`)).toEqual([{ wrong: 0 }]);
      expect(await rows(db, sql`select count(*)::int as hidden from message_hidden where conversation_id is not null`)).toEqual([{ hidden: 2 }]);
      expect(await rows(db, sql`select max(account_seq)::int as seq from users`)).toEqual([{ seq: 0 }]);
      expect(await conversationModelFaults(db)).toEqual([]);

      // This release's writer carries on where the backfill stopped: Ana and Bo's conversation at
      // its next seq, Fay's first message a new conversation, none to the deleted account.
      const outcomes = await storeMessages(db, [
        { senderId: bo, recipientId: ana, clientId: 'after-1', text: 'after' },
        { senderId: fay, recipientId: cy, clientId: 'after-2', text: 'hello' },
        { senderId: ana, recipientId: ed, clientId: 'after-3', text: 'gone' },
      ]);
      expect(outcomes.map((outcome) => ('stored' in outcome ? 'stored' : outcome.refused))).toEqual(['stored', 'stored', 'recipient']);
      expect(await rows(db, sql`select client_id, conversation_id::int, seq::int, ordinal::int, sender_ordinal::int from messages
        where client_id like 'after-%' order by id`)).toEqual([
        { client_id: 'after-1', conversation_id: heads[0]!.id, seq: 9, ordinal: 9, sender_ordinal: 3 },
        { client_id: 'after-2', conversation_id: heads.at(-1)!.id + 1, seq: 1, ordinal: 1, sender_ordinal: 1 },
      ]);
      expect(await conversationModelFaults(db)).toEqual([]);
    });
  });
});
