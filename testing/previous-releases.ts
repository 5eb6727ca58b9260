// What earlier releases stored, for tests of a migration on a database they wrote: the recorded
// rows of the release before conversations (testing/recorded/pair-release.sql, written by that
// release's own code: record-pair-release.ts says how to record it again), and stand-ins for the
// writes of releases whose nodes run beside a newer one during a rollout. (This release's code
// writes columns those releases did not have, so it cannot stand in for them.)
//
// The recorded story, with ids in order (users 1–6: Ana, Bo, Cy, Di, Ed, Fay; message m-n is id n):
// Ana and Bo: Ana sends m-1…m-3, Bo m-4 and m-5; Bo reads up to m-2 (m-3 stays unread), Ana reads
// all of Bo's with receipts on both sides; Bo reacts to m-1, Ana edits m-2, Bo hides m-4 for
// himself; Ana sends m-6 and m-7 and unsends m-6 while unread; Bo hides m-7 while unread, then m-8
// arrives: m-3 and m-8 stay unread for him. Ana and Cy, who has receipts off: m-9…m-11, Cy reads,
// never seen. Di writes m-12, m-13, Ana m-14, Di m-15, and Ana mutes Di: Di's stay unread. Ed writes
// m-16 to Ana, Ana m-17 to Ed, Bo m-18 to Ed, then Ed deletes his account; Fay never wrote.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/engine/open-database';
import { rows } from '../server/db/engine/raw-rows';

/** The recorded story's users, by id. */
export const STORY = { ana: 1, bo: 2, cy: 3, di: 4, ed: 5, fay: 6 } as const;

const RECORDED = path.resolve(import.meta.dirname, 'recorded/pair-release.sql');

/** The recorded release's rows, as its code stored them (on a database migrated as that release was). */
export async function loadRecorded(db: Db): Promise<void> {
  // The dump's shape: comment lines, then statements each ending a line with `;`.
  const recorded = (await readFile(RECORDED, 'utf8')).split('\n').filter((line) => !line.startsWith('--')).join('\n');
  for (const statement of recorded.split(/;\n/).filter((text) => text.trim())) await db.execute(sql.raw(statement));
}

/** What the pair model holds, as the release before conversations reads it. */
export const pairModel = async (db: Db) => ({
  messages: await rows(db, sql`select id, sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, read_at, seen_at, edited_at, deleted_at, reactions, sender_version, recipient_version from messages order by id`),
  conversations: await rows<{ user_id: number; peer_id: number; unread_count: number; muted: boolean }>(db, sql`select user_id, peer_id, last_message_id, unread_count, muted from conversations order by user_id, peer_id`),
  reactions: await rows(db, sql`select message_id, user_id, emoji from message_reactions order by message_id, user_id, emoji`),
  hidden: await rows(db, sql`select user_id, message_id from message_hidden order by user_id, message_id`),
  lastSeqs: await rows(db, sql`select id, last_seq from users order by id`),
});

// The pair model's half of a send, as CTEs of one statement: both accounts' next seq (`seqs`), and
// after an `inserted` CTE has stored the message, each side's conversation row with the
// recipient's unread count up by one (`sides`).
const pairSeqs = (senderId: number, recipientId: number) =>
  sql`seqs as (update users set last_seq = last_seq + 1 where id in (${senderId}::int, ${recipientId}::int) returning id, last_seq)`;
const pairSeqOf = (userId: number) => sql`(select last_seq from seqs where id = ${userId}::int)`;
const pairSides = (senderId: number, recipientId: number) => sql`sides as (
  insert into conversations (user_id, peer_id, last_message_id, last_message_at, unread_count)
  select v.user_id, v.peer_id, i.id, i.created_at, v.unread
  from inserted i cross join (values (${senderId}::int, ${recipientId}::int, 0), (${recipientId}::int, ${senderId}::int, 1)) as v(user_id, peer_id, unread)
  on conflict (user_id, peer_id) do update set last_message_id = excluded.last_message_id,
    last_message_at = excluded.last_message_at, unread_count = conversations.unread_count + excluded.unread_count)`;
/** The pair's direct conversation head, as a condition on conversations_v2. */
const directHead = (senderId: number, recipientId: number) =>
  sql`kind = 'direct' and direct_low = least(${senderId}::int, ${recipientId}::int) and direct_high = greatest(${senderId}::int, ${recipientId}::int)`;

/** What a node of the release before conversations writes for a message: the pair model only. */
export async function sendTheOldWay(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    with ${pairSeqs(senderId, recipientId)}, inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq)
      select ${senderId}::int, ${recipientId}::int, ${clientId}::text, ${`old ${clientId}`}::text, ${pairSeqOf(senderId)}, ${pairSeqOf(recipientId)}
      returning id, created_at
    ), ${pairSides(senderId, recipientId)}
    select id::int from inserted`);
  return row!.id;
}

/**
 * What a node of the release that wrote both models (0017's) writes for a message in a conversation
 * that has one: the pair model as sendTheOldWay does, and beside it the message at its
 * conversation's next seq (version = seq) with the head moved to it.
 */
export async function sendBothWays(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const id = await sendTheOldWay(db, senderId, recipientId, clientId);
  await db.execute(sql`
    with head as (
      update conversations_v2 set last_seq = last_seq + 1, last_message_seq = last_seq + 1, last_message_id = ${id},
        last_message_at = (select created_at from messages where id = ${id}), changed_xid = pg_current_xact_id()
      where ${directHead(senderId, recipientId)}
      returning id, last_seq
    )
    update messages set conversation_id = head.id, seq = head.last_seq, version = head.last_seq from head where messages.id = ${id}`);
  return id;
}

/**
 * What a node of the release before ordinals (0019's, whose places are required) writes for a
 * message in a conversation that has one: the pair model, and the message at its conversation's
 * next seq (version = seq) in the same insert, then the head moved to it; no ordinals, and the
 * head's count not moved.
 */
export async function sendWithoutOrdinals(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    with ${pairSeqs(senderId, recipientId)}, head as (
      update conversations_v2 set last_seq = last_seq + 1, changed_xid = pg_current_xact_id()
      where ${directHead(senderId, recipientId)}
      returning id, last_seq
    ), inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, conversation_id, seq, version)
      select ${senderId}::int, ${recipientId}::int, ${clientId}::text, ${`old ${clientId}`}::text, ${pairSeqOf(senderId)}, ${pairSeqOf(recipientId)},
        head.id, head.last_seq, head.last_seq
      from head
      returning id, created_at
    ), ${pairSides(senderId, recipientId)}
    select id::int from inserted`);
  await db.execute(sql`update conversations_v2 set last_message_seq = m.seq, last_message_id = m.id, last_message_at = m.created_at
    from messages m where m.id = ${row!.id} and conversations_v2.id = m.conversation_id`);
  return row!.id;
}

/**
 * What a node of the releases that numbered messages by their ordinals and still wrote the pair
 * model (0020's and 0021's) writes for a message in a conversation that has one: the pair model,
 * the message at its conversation's next seq with its ordinals (after the head's count, which a
 * node of the release before did not move), the head moved to it and counting it, and the sender
 * marked as having written.
 */
export async function sendWithOrdinals(db: Db, senderId: number, recipientId: number, clientId: string): Promise<number> {
  const [row] = await rows<{ id: number }>(db, sql`
    with ${pairSeqs(senderId, recipientId)}, head as (
      update conversations_v2 set last_seq = last_seq + 1, message_count = coalesce(message_count, 0) + 1, changed_xid = pg_current_xact_id()
      where ${directHead(senderId, recipientId)}
      returning id, last_seq, message_count
    ), inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, conversation_id, seq, version, ordinal, sender_ordinal)
      select ${senderId}::int, ${recipientId}::int, ${clientId}::text, ${clientId}::text, ${pairSeqOf(senderId)}, ${pairSeqOf(recipientId)},
        head.id, head.last_seq, head.last_seq, head.message_count,
        coalesce((select max(sender_ordinal) from messages where conversation_id = head.id and sender_id = ${senderId}::int), 0) + 1
      from head
      returning id, created_at
    ), ${pairSides(senderId, recipientId)}, wrote as (
      update conversation_members set wrote = true where conversation_id = (select id from head) and user_id = ${senderId}::int
    )
    select id::int from inserted`);
  await db.execute(sql`update conversations_v2 set last_message_seq = m.seq, last_message_id = m.id, last_message_at = m.created_at
    from messages m where m.id = ${row!.id} and conversations_v2.id = m.conversation_id`);
  return row!.id;
}

/** A reaction as 0017's release writes it: the pair's row and state, and a conversation event at the next seq that versions the message. */
export async function reactBothWays(db: Db, userId: number, messageId: number, emoji: string): Promise<void> {
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
