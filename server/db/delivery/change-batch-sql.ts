// The statements of a change batch (change-batch.ts), prepared once per connection and run in
// scripts with their values as literals (script-transaction.ts), as the message batch's are.
import { messageRowSql } from './message-batch-sql';
import { replySummarySql } from './message-payload';
import { unreadBetweenSql, unreadFromOrdinalsSql, unreadTotalSql } from '../unread';
import { execute, prepared, sqlInt, sqlIntArray, sqlIntOrNull, sqlJson, sqlText, type Statement } from '../engine/script-transaction';

/** A change to one message, as the batch's reads take it: who asks, which message, what for. */
export interface MessageTarget {
  actorId: number;
  messageId: number;
  /** Read only for `hide`: the conversation's newest message the actor still sees besides this one. */
  preview: boolean;
  /**
   * Whose unread count the change may move, read with their position (`hide`: the actor's;
   * `unsend`: the recipient's); null for changes that move none.
   */
  countFor: 'actor' | 'recipient' | null;
}

/** The database's clock at the transaction's start, to the millisecond (what the columns store). */
export const NOW: Statement = 'select now()::timestamptz(3) as now';

/** A read as the batch's statements take it: who reads, which conversation, up to which message (null: all). */
export interface ReadTarget {
  userId: number;
  conversationId: number;
  upTo: number | null;
}

/**
 * Locks, lowest id first in one statement, both sides of every message its actor is a side of,
 * and every reader with, in a direct conversation of theirs, its other person. A message that is
 * not the actor's, or a conversation that is not the reader's, locks no one else. Users missing
 * from the answer do not exist.
 */
export const lockChangeUsers = (targets: readonly MessageTarget[], reads: readonly ReadTarget[]): Statement =>
  execute(
    LOCK,
    sqlJson(targets.map(({ actorId, messageId }) => ({ a: actorId, m: messageId }))),
    sqlJson(reads.map(({ userId, conversationId }) => ({ u: userId, c: conversationId }))),
  );

// Every lookup is a LATERAL … LIMIT 1 probe of a key: planned once for any batch
// (json_to_recordset is guessed at 100 rows), joins would hash a scan of messages or
// conversations instead, and without the LIMIT the planner flattens the LATERAL into a join.
const LOCK = prepared('change_lock_users', ['json', 'json'], `
  select id, account_seq, is_active, deleted_at is not null as deleted, read_receipts from users
  where id = any(array(
    select unnest(array[m.sender_id, m.recipient_id])
    from json_to_recordset($1) as k(a int, m bigint)
    cross join lateral (select sender_id, recipient_id from messages where id = k.m and k.a in (sender_id, recipient_id) limit 1) m
    union
    select r.u from json_to_recordset($2) as r(u int, c bigint)
    union
    select d.peer_id from json_to_recordset($2) as r(u int, c bigint)
    cross join lateral (select peer_id from account_conversations where user_id = r.u and conversation_id = r.c limit 1) d
    where d.peer_id is not null))
  order by id for update`);

/**
 * Each message as its actor may see it, read under the locks: none for a message that is not the
 * actor's. With it, what the rules need (hidden by the actor, a block either way, the other side's
 * account), its reactions (each person's, with when), its upload's storage key and whether another
 * message carries that upload, its conversation, its seq there and the conversation's newest seq
 * (the batch is the heads' other writer, under the same locks as the message batch); for
 * `countFor`, that member's read position, whether they deleted the message for themselves, and
 * their unread count of the conversation (from the ordinals: unread.ts); and for `preview`, the
 * conversation's newest other message the actor sees, as JSON with its upload and reply.
 */
export const findChangeMessages = (targets: readonly MessageTarget[]): Statement =>
  execute(FIND_MESSAGES, sqlJson(targets.map(({ actorId, messageId, preview, countFor }) => ({ a: actorId, m: messageId, p: preview, c: countFor }))));

const FIND_MESSAGES = prepared('change_find_messages', ['json'], `
  select k.a as actor_id, ${messageRowSql('m')}, m.conversation_id, m.seq as conversation_seq, cv.last_seq as conversation_last_seq,
    uf.read_seq as counted_read_seq,
    uf.user_id is not null and exists (select 1 from message_hidden h where h.user_id = uf.user_id and h.message_id = m.id) as counted_hid,
    case when uf.user_id is not null then ${unreadFromOrdinalsSql('uf', 'cv')} end as counted_unread,
    exists (select 1 from message_hidden h where h.user_id = k.a and h.message_id = m.id) as hidden,
    (exists (select 1 from blocks b where b.blocker_id = k.a and b.blocked_id = p.id)
      or exists (select 1 from blocks b where b.blocker_id = p.id and b.blocked_id = k.a)) as blocked,
    p.id as peer_id, p.is_active as peer_active, p.deleted_at is not null as peer_deleted, p.read_receipts as peer_receipts,
    (select json_agg(json_build_object('emoji', r.emoji, 'user_id', r.user_id, 'at', r.created_at))
      from message_reactions r where r.message_id = m.id) as reaction_rows,
    u.storage_key,
    m.attachment_id is not null
      and exists (select 1 from messages o where o.attachment_id = m.attachment_id and o.id <> m.id) as carried,
    case when k.p then (
      select json_build_object('message', to_json(n), 'upload', to_json(nu), 'reply', ${replySummarySql('n.reply_to_id')})
      from (select ${messageRowSql('x')}, x.conversation_id, x.seq, x.version from messages x
        where x.conversation_id = m.conversation_id and x.id <> m.id
          and not exists (select 1 from message_hidden h where h.user_id = k.a and h.message_id = x.id)
        order by x.seq desc
        limit 1) n
      left join uploads nu on nu.id = n.attachment_id) end as preview
  from json_to_recordset($1) as k(a int, m bigint, p boolean, c text)
  cross join lateral (select * from messages where id = k.m and k.a in (sender_id, recipient_id) limit 1) m
  cross join lateral (select * from users where id = case when k.a = m.sender_id then m.recipient_id else m.sender_id end limit 1) p
  left join lateral (select storage_key from uploads where id = m.attachment_id limit 1) u on true
  left join lateral (select last_seq, last_message_seq, message_count from conversations_v2 where id = m.conversation_id limit 1) cv on true
  left join lateral (select * from conversation_members where conversation_id = m.conversation_id
    and user_id = case k.c when 'actor' then k.a when 'recipient' then m.recipient_id end limit 1) uf on true`);

/**
 * For each conversation read (reader, conversation, up to which message; null: all), decided by
 * the reader's position in it (docs/design/conversations.md 3.3): the other person of a direct
 * conversation (`peer_id`), where the read reaches (`target_seq`: the newest seq when reading all,
 * else the seq of the message asked for, a probe by its key; 0, reading nothing, for an id that is
 * none of this conversation's; never past the end of what the reader may read), how many of the
 * reader's unread messages lie between their position and there (`unread`, from the ordinals:
 * unread.ts), the newest of them (its seq: what the receipt names; never one unsent or deleted by
 * the reader for themselves, which they never saw), the reader's unread count before the read, and
 * whether either of a direct conversation's two has blocked the other. No row for a conversation
 * the reader is not a member of.
 */
export const findUnread = (reads: readonly ReadTarget[]): Statement =>
  execute(FIND_UNREAD, sqlJson(reads.map(({ userId, conversationId, upTo }) => ({ u: userId, c: conversationId, t: upTo }))));

const FIND_UNREAD = prepared('change_find_unread', ['json'], `
  select k.u as user_id, k.c as conversation_id, ac.peer_id, mb.read_seq, r.target_seq,
    case when r.target_seq > mb.read_seq then ${unreadBetweenSql('mb', 'mb.read_seq', 'r.target_seq')} else 0 end as unread,
    pm.seq as up_to_seq,
    ${unreadFromOrdinalsSql('mb', 'h')} as unread_count,
    (exists (select 1 from blocks b where b.blocker_id = k.u and b.blocked_id = ac.peer_id)
      or exists (select 1 from blocks b where b.blocker_id = ac.peer_id and b.blocked_id = k.u)) as blocked
  from json_to_recordset($1) as k(u int, c bigint, t bigint)
  cross join lateral (select peer_id from account_conversations where user_id = k.u and conversation_id = k.c limit 1) ac
  cross join lateral (select * from conversation_members where conversation_id = k.c and user_id = k.u limit 1) mb
  cross join lateral (select * from conversations_v2 where id = k.c limit 1) h
  left join lateral (select least(coalesce(mb.left_seq, h.last_seq), case when k.t is null then h.last_seq else coalesce(
      (select seq from messages where id = k.t and conversation_id = k.c limit 1), 0) end) as target_seq) r on true
  left join lateral (select seq from messages m where conversation_id = k.c and sender_id <> k.u
      and seq > mb.read_seq and seq <= r.target_seq and deleted_at is null
      and not exists (select 1 from message_hidden h where h.user_id = k.u and h.message_id = m.id)
      order by seq desc limit 1) pm on true`);

// The writes: one small prepared statement each, run in the batch's second script.
const ADD_REACTION = prepared('change_add_reaction', ['bigint', 'int', 'text', 'timestamptz', 'bigint'], `
  insert into message_reactions (message_id, user_id, emoji, created_at, conversation_id) values ($1, $2, $3, $4, $5)`);
const REMOVE_REACTION = prepared('change_remove_reaction', ['bigint', 'int', 'text'], `
  delete from message_reactions where message_id = $1 and user_id = $2 and emoji = $3`);
const SET_REACTIONS = prepared('change_set_reactions', ['bigint', 'jsonb'], `update messages set reactions = $2 where id = $1`);
const EDIT = prepared('change_edit', ['bigint', 'text', 'timestamptz'], `update messages set text = $2, edited_at = $3 where id = $1`);
const UNSEND = prepared('change_unsend', ['bigint', 'timestamptz'], `
  with reactions_gone as (delete from message_reactions where message_id = $1)
  update messages set text = '', attachment_id = null, deleted_at = $2, reactions = '[]' where id = $1`);
const REMOVE_UPLOAD = prepared('change_remove_upload', ['text'], `delete from uploads where id = $1`);
const HIDE = prepared('change_hide', ['int', 'bigint', 'bigint'], `insert into message_hidden (user_id, message_id, conversation_id) values ($1, $2, $3)`);
// The reader's position in the conversation model: never back, and the receipt with it when allowed.
const MOVE_READ = prepared('change_move_read', ['bigint', 'int', 'bigint', 'bigint', 'boolean', 'timestamptz'], `
  update conversation_members set read_seq = greatest(read_seq, $3),
    seen_seq = case when $5 then greatest(seen_seq, $4) else seen_seq end,
    seen_at = case when $5 and $4 > seen_seq then $6 else seen_at end
  where conversation_id = $1 and user_id = $2`);

const at = (date: Date) => sqlText(date.toISOString());

export const addReaction = (messageId: number, conversationId: number | null, userId: number, emoji: string, when: Date) =>
  execute(ADD_REACTION, sqlInt(messageId), sqlInt(userId), sqlText(emoji), at(when), sqlIntOrNull(conversationId));
export const removeReaction = (messageId: number, userId: number, emoji: string) =>
  execute(REMOVE_REACTION, sqlInt(messageId), sqlInt(userId), sqlText(emoji));
export const setReactions = (messageId: number, reactions: unknown) => execute(SET_REACTIONS, sqlInt(messageId), sqlJson(reactions));
export const editText = (messageId: number, text: string, when: Date) => execute(EDIT, sqlInt(messageId), sqlText(text), at(when));
/** Text, attachment and reactions gone. */
export const unsendMessage = (messageId: number, when: Date) => execute(UNSEND, sqlInt(messageId), at(when));
export const removeUpload = (uploadId: string) => execute(REMOVE_UPLOAD, sqlText(uploadId));
export const hideMessage = (userId: number, messageId: number, conversationId: number | null) =>
  execute(HIDE, sqlInt(userId), sqlInt(messageId), sqlIntOrNull(conversationId));
/** Where a read leaves the reader: read up to `readSeq`, the peer's newest message read at `seenSeq`. */
export interface ReadPosition {
  readSeq: number;
  seenSeq: number;
}
/** The reader has read the conversation up to `readSeq` (and the peer may see so up to `seenSeq`, with `seen`). */
export const moveReadPosition = (conversationId: number, userId: number, { readSeq, seenSeq }: ReadPosition, seen: boolean, when: Date) =>
  execute(MOVE_READ, sqlInt(conversationId), sqlInt(userId), sqlInt(readSeq), sqlInt(seenSeq), seen ? 'true' : 'false', at(when));

/** An account's private item (account_events): the account, its seq, the conversation, what kind, the state. */
export interface AccountEventRow {
  u: number;
  s: number;
  c: number;
  k: string;
  st: Record<string, unknown>;
}

/** A change in a conversation, for all its members (conversation_events): the conversation, its seq, the message, who, what kind, the state. */
export interface ConversationEventRow {
  c: number;
  s: number;
  m: number;
  a: number;
  k: string;
  st: Record<string, unknown>;
}

/** A message's new version: the conversation seq of its latest change. */
export interface VersionRow {
  m: number;
  v: number;
}

/** Where each stream touched now ends: per account, its items' seq; per conversation, its seq. */
interface StreamEnds {
  accounts: ReadonlyMap<number, number>;
  conversations: ReadonlyMap<number, number>;
}

/** Every stream row of a change batch, one statement: see APPEND. */
export interface StreamRows {
  accountEvents: readonly AccountEventRow[];
  conversationEvents: readonly ConversationEventRow[];
  versions: readonly VersionRow[];
  ends: StreamEnds;
}

/**
 * One statement: the rows of every stream the batch wrote (each account's private items, each
 * conversation's events), where each stream now ends (the accounts' item seqs, the heads) and the
 * messages' versions. Each UPDATE also names its rows by key, `= any(…)`, or the planner would
 * hash a scan of the table to join the values.
 */
export const appendEvents = ({ accountEvents, conversationEvents, versions, ends }: StreamRows): Statement =>
  execute(
    APPEND,
    sqlIntArray([...ends.accounts.keys()]),
    sqlIntArray([...ends.accounts.values()]),
    sqlJson(accountEvents),
    sqlJson(conversationEvents),
    sqlIntArray([...ends.conversations.keys()]),
    sqlIntArray([...ends.conversations.values()]),
    sqlJson(versions),
  );

const APPEND = prepared('change_append', ['int[]', 'bigint[]', 'json', 'json', 'bigint[]', 'bigint[]', 'json'], `
  with accounts as (
    update users set account_seq = v.account_seq from unnest($1::int[], $2::bigint[]) as v(id, account_seq)
    where users.id = v.id and users.id = any($1::int[])
  ), account_items as (
    insert into account_events (user_id, seq, conversation_id, kind, state)
    select u, s, c, k, st from json_to_recordset($3) as e(u int, s bigint, c bigint, k text, st jsonb)
  ), conversation_items as (
    insert into conversation_events (conversation_id, seq, message_id, actor_id, kind, state)
    select c, s, m, a, k, st from json_to_recordset($4) as e(c bigint, s bigint, m bigint, a int, k text, st jsonb)
  ), heads as (
    update conversations_v2 set last_seq = v.seq, changed_xid = pg_current_xact_id() from unnest($5::bigint[], $6::bigint[]) as v(id, seq)
    where conversations_v2.id = v.id and conversations_v2.id = any($5::bigint[])
  )
  update messages set version = v.v
  from json_to_recordset($7) as v(m bigint, v bigint)
  where messages.id = v.m and messages.id = any(array(select m from json_to_recordset($7) as w(m bigint)))`);

/** The users' unread totals as they stand now (messages.ts, unreadTotalSql). */
export const unreadTotals = (userIds: readonly number[]): Statement => execute(UNREAD_TOTALS, sqlIntArray(userIds));

const UNREAD_TOTALS = prepared('change_unread_totals', ['int[]'], `
  select t.id, ${unreadTotalSql('t.id')} as total from unnest($1::int[]) as t(id)`);
