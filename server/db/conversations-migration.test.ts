// The conversation model's expand migration (0017) on a database the previous release wrote, on
// both engines: testing/recorded/pair-release.sql holds the rows that release's own code stored
// for the story below (testing/recorded/record-pair-release.ts, which says how to record it again),
// the migration adds the conversation model beside them, and what the pair model answers (order,
// unread counts, receipts, mutes, reactions, hidden messages, a deleted account) is what the new
// rows say.
//
// The story, with ids in order (users 1–6: Ana, Bo, Cy, Di, Ed, Fay; message m-n is id n):
// Ana and Bo: Ana sends m-1…m-3, Bo m-4 and m-5; Bo reads up to m-2 (m-3 stays unread), Ana reads
// all of Bo's with receipts on both sides; Bo reacts to m-1, Ana edits m-2, Bo hides m-4 for
// himself; Ana sends m-6 and m-7 and unsends m-6 while unread; Bo hides m-7 while unread, then m-8
// arrives: m-3 and m-8 stay unread for him. Ana and Cy, who has receipts off: m-9…m-11, Cy reads,
// never seen. Di writes m-12, m-13, Ana m-14, Di m-15, and Ana mutes Di: Di's stay unread. Ed writes
// m-16 to Ana, Ana m-17 to Ed, Bo m-18 to Ed, then Ed deletes his account; Fay never wrote.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startEngine, type Engine } from '../../testing/engines';
import { conversationModelFaults } from '../../testing/conversation-model';
import { MIGRATIONS, migrationsBefore } from '../../testing/migrations';
import { storeMessages } from './delivery/message-batch';
import { openDatabase, type Db } from './engine/open-database';
import { rows } from './engine/raw-rows';

const RECORDED = path.resolve(import.meta.dirname, '../../testing/recorded/pair-release.sql');

let dir: string;
let before: string;
let beforeAgain: string;
let beforeOrdinals: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-conversations-migration-'));
  before = await migrationsBefore('_conversations_expand', path.join(dir, 'before'));
  beforeAgain = await migrationsBefore('_conversations_backfill_again', path.join(dir, 'before-again'));
  beforeOrdinals = await migrationsBefore('_message_ordinals_required', path.join(dir, 'before-ordinals'));
});

/** The recorded previous release's rows, as its code stored them. */
async function loadRecorded(db: Db): Promise<void> {
  // The dump's shape: comment lines, then statements each ending a line with `;`.
  const recorded = (await readFile(RECORDED, 'utf8')).split('\n').filter((line) => !line.startsWith('--')).join('\n');
  for (const statement of recorded.split(/;\n/).filter((text) => text.trim())) await db.execute(sql.raw(statement));
}

/**
 * What a node of the release before conversations writes for a message: the pair model only (its
 * code, message-batch-sql.ts's pair half): both accounts' next seq, the message without a
 * conversation, each side's conversation row (the recipient's unread count up by one).
 */
async function sendTheOldWay(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    with seqs as (
      update users set last_seq = last_seq + 1 where id in (${senderId}::int, ${recipientId}::int) returning id, last_seq
    ), inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq)
      select ${senderId}::int, ${recipientId}::int, ${clientId}::text, ${`old ${clientId}`}::text,
        (select last_seq from seqs where id = ${senderId}::int), (select last_seq from seqs where id = ${recipientId}::int)
      returning id, created_at
    ), sides as (
      insert into conversations (user_id, peer_id, last_message_id, last_message_at, unread_count)
      select v.user_id, v.peer_id, i.id, i.created_at, v.unread
      from inserted i cross join (values (${senderId}::int, ${recipientId}::int, 0), (${recipientId}::int, ${senderId}::int, 1)) as v(user_id, peer_id, unread)
      on conflict (user_id, peer_id) do update set last_message_id = excluded.last_message_id,
        last_message_at = excluded.last_message_at, unread_count = conversations.unread_count + excluded.unread_count
    )
    select id::int from inserted`);
  return row!.id;
}

/**
 * What a node of the release that wrote both models (R1) writes for a message in a conversation
 * that has one: the pair model as sendTheOldWay does, and beside it the message at its
 * conversation's next seq (version = seq) with the head moved to it. (This release's code writes
 * columns that release did not have, so it cannot stand in.)
 */
async function sendBothWays(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const id = await sendTheOldWay(db, senderId, recipientId, clientId);
  await db.execute(sql`
    with head as (
      update conversations_v2 set last_seq = last_seq + 1, last_message_seq = last_seq + 1, last_message_id = ${id},
        last_message_at = (select created_at from messages where id = ${id}), changed_xid = pg_current_xact_id()
      where kind = 'direct' and direct_low = least(${senderId}::int, ${recipientId}::int) and direct_high = greatest(${senderId}::int, ${recipientId}::int)
      returning id, last_seq
    )
    update messages set conversation_id = head.id, seq = head.last_seq, version = head.last_seq from head where messages.id = ${id}`);
  return id;
}

/**
 * What a node of the release before ordinals (0019's) writes for a message in a conversation that
 * has one: the pair model as sendTheOldWay does, and the message at its conversation's next seq
 * (version = seq) in the same insert, then the head moved to it; no ordinals, and the head's
 * count not moved.
 */
async function sendWithoutOrdinals(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    with seqs as (
      update users set last_seq = last_seq + 1 where id in (${senderId}::int, ${recipientId}::int) returning id, last_seq
    ), head as (
      update conversations_v2 set last_seq = last_seq + 1, changed_xid = pg_current_xact_id()
      where kind = 'direct' and direct_low = least(${senderId}::int, ${recipientId}::int) and direct_high = greatest(${senderId}::int, ${recipientId}::int)
      returning id, last_seq
    ), inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, conversation_id, seq, version)
      select ${senderId}::int, ${recipientId}::int, ${clientId}::text, ${`old ${clientId}`}::text,
        (select last_seq from seqs where id = ${senderId}::int), (select last_seq from seqs where id = ${recipientId}::int),
        head.id, head.last_seq, head.last_seq
      from head
      returning id, created_at, seq, conversation_id
    ), sides as (
      insert into conversations (user_id, peer_id, last_message_id, last_message_at, unread_count)
      select v.user_id, v.peer_id, i.id, i.created_at, v.unread
      from inserted i cross join (values (${senderId}::int, ${recipientId}::int, 0), (${recipientId}::int, ${senderId}::int, 1)) as v(user_id, peer_id, unread)
      on conflict (user_id, peer_id) do update set last_message_id = excluded.last_message_id,
        last_message_at = excluded.last_message_at, unread_count = conversations.unread_count + excluded.unread_count
    )
    select id::int from inserted`);
  await db.execute(sql`update conversations_v2 set last_message_seq = m.seq, last_message_id = m.id, last_message_at = m.created_at
    from messages m where m.id = ${row!.id} and conversations_v2.id = m.conversation_id`);
  return row!.id;
}

/** A reaction as R1 writes it: the pair's row and state, and a conversation event at the next seq that versions the message. */
async function reactBothWays(db: Db, userId: number, messageId: number, emoji: string): Promise<void> {
  await db.execute(sql`
    with message as (
      select conversation_id from messages where id = ${messageId}
    ), head as (
      update conversations_v2 set last_seq = last_seq + 1, changed_xid = pg_current_xact_id()
      where id = (select conversation_id from message) returning id, last_seq
    ), reaction as (
      insert into message_reactions (message_id, user_id, emoji, conversation_id) select ${messageId}, ${userId}, ${emoji}, id from head
    ), event as (
      insert into conversation_events (conversation_id, seq, message_id, actor_id, kind, state)
      select id, last_seq, ${messageId}, ${userId}, 'reaction', jsonb_build_object('reactions', jsonb_build_array(jsonb_build_object('emoji', ${emoji}::text, 'user_ids', jsonb_build_array(${userId}::int))))
      from head
    )
    update messages set version = head.last_seq, reactions = jsonb_build_array(jsonb_build_object('emoji', ${emoji}::text, 'user_ids', jsonb_build_array(${userId}::int)))
    from head where messages.id = ${messageId}`);
}
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What the pair model holds, as the previous release reads it. */
const pairModel = async (db: Db) => ({
  messages: await rows(db, sql`select id, sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, read_at, seen_at, edited_at, deleted_at, reactions, sender_version, recipient_version from messages order by id`),
  conversations: await rows<{ user_id: number; peer_id: number; unread_count: number; muted: boolean }>(db, sql`select user_id, peer_id, last_message_id, unread_count, muted from conversations order by user_id, peer_id`),
  reactions: await rows(db, sql`select message_id, user_id, emoji from message_reactions order by message_id, user_id, emoji`),
  hidden: await rows(db, sql`select user_id, message_id from message_hidden order by user_id, message_id`),
  lastSeqs: await rows(db, sql`select id, last_seq from users order by id`),
});

describe.each(ENGINES)('on %s', (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine(name, path.join(dir, name));
  }, 120_000);
  afterAll(() => engine?.stop());

  it('gives every pair with messages a direct conversation whose members, positions and heads answer as the pairs did', { timeout: 240_000 }, async () => {
    const options = await engine.fresh();
    const old = await openDatabase({ ...options, migrationsFolder: before });
    const { db } = old;
    await loadRecorded(db);
    const [ana, bo, cy, di, ed, fay] = [1, 2, 3, 4, 5, 6];
    const stored = await pairModel(db);
    await old.close();

    const migrated = await openDatabase({ ...options, migrationsFolder: MIGRATIONS });
    try {
      const { db } = migrated;
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
    } finally {
      await migrated.close();
    }
  });
  it('again (0019): fills what nodes of the previous release wrote beside this one, renumbers, and makes the places required', { timeout: 240_000 }, async () => {
    const options = await engine.fresh();
    const [ana, bo, cy, di, , fay] = [1, 2, 3, 4, 5, 6];
    const previous = await openDatabase({ ...options, migrationsFolder: before });
    await loadRecorded(previous.db);
    await previous.close();
    const rollout = await openDatabase({ ...options, migrationsFolder: beforeAgain });
    let stored: Awaited<ReturnType<typeof pairModel>>;
    let oldToAna: number;
    try {
      const { db } = rollout;
      // 0017 and 0018 ran; this release's nodes write both models, the previous release's nodes
      // only the pairs, interleaved: Bo and Ana's conversation gets messages of both kinds.
      await sendBothWays(db, ana, bo, 'new-1');
      oldToAna = await sendTheOldWay(db, bo, ana, 'old-1');
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
      stored = await pairModel(db);
    } finally {
      await rollout.close();
    }

    const migrated = await openDatabase({ ...options, migrationsFolder: MIGRATIONS });
    try {
      const { db } = migrated;
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
    } finally {
      await migrated.close();
    }
  });
  it('again (0021): numbers the ordinals of what nodes of the previous release stored beside this one, and makes them required', { timeout: 240_000 }, async () => {
    const options = await engine.fresh();
    const [ana, bo, , di] = [1, 2, 3, 4];
    const previous = await openDatabase({ ...options, migrationsFolder: before });
    await loadRecorded(previous.db);
    await previous.close();
    const rollout = await openDatabase({ ...options, migrationsFolder: beforeOrdinals });
    let stored: Awaited<ReturnType<typeof pairModel>>;
    try {
      const { db } = rollout;
      // 0017–0020 ran. The release that numbers messages (0020's, whose writer is this one's) and
      // the release before it (sendBothWays: no ordinals, the head's count not moved) store
      // messages interleaved in Ana and Bo's conversation; an old node writes in Ana and Di's.
      await storeMessages(db, [{ senderId: ana, recipientId: bo, clientId: 'new-1', text: 'new-1' }]);
      const old = await sendWithoutOrdinals(db, bo, ana, 'old-1');
      await storeMessages(db, [{ senderId: bo, recipientId: ana, clientId: 'new-2', text: 'new-2' }]);
      await sendWithoutOrdinals(db, ana, bo, 'old-2');
      await storeMessages(db, [{ senderId: ana, recipientId: bo, clientId: 'new-3', text: 'new-3' }]);
      await sendWithoutOrdinals(db, di, ana, 'old-3');
      // An old node's message, unread and then unsent: the counts leave it out.
      await db.execute(sql`update messages set deleted_at = now(), text = '' where id = ${old}`);
      await db.execute(sql`update conversations set unread_count = unread_count - 1 where user_id = ${ana} and peer_id = ${bo}`);
      expect(await rows(db, sql`select count(*)::int as unnumbered from messages where ordinal is null`)).toEqual([{ unnumbered: 3 }]);
      stored = await pairModel(db);
    } finally {
      await rollout.close();
    }

    const migrated = await openDatabase({ ...options, migrationsFolder: MIGRATIONS });
    try {
      const { db } = migrated;
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
    } finally {
      await migrated.close();
    }
  });
});
