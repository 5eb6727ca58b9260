// The statements of a message batch (message-batch.ts), prepared once per connection and run in
// scripts with their values as literals (script-transaction.ts), and the rows they return as the
// schema's row types.
import type { ReplySummary } from '../../../lib/contract';
import { replySummarySql } from './message-payload';
import type { MessageRow, UploadRow } from '../schema';
import { execute, prepared, sqlIntArray, sqlJson, type Row, type Statement } from '../engine/script-transaction';

/** A message that gets a row: what is inserted, in the batch's order (`i`). */
export interface FreshRow {
  i: number;
  sender_id: number;
  recipient_id: number;
  client_id: string;
  text: string;
  attachment_id: string | null;
  reply_to_id: number | null;
  /** The pair's direct conversation, or null when this batch creates it (seq 1, 2… then). */
  conversation_id: number | null;
  /** The message's place in its conversation's stream. */
  seq: number;
  /** Its place among the conversation's messages, and among its sender's there (1, 2…). */
  ordinal: number;
  sender_ordinal: number;
}


/** The columns toMessageRow reads, of the messages row `alias` (MessageRow's). */
export const messageRowSql = (alias: string) =>
  ['id', 'sender_id', 'recipient_id', 'client_id', 'text', 'attachment_id', 'attachment_removed', 'created_at', 'edited_at', 'deleted_at', 'reactions', 'reply_to_id']
    .map((column) => `${alias}.${column}`)
    .join(', ');

const LOCK_USERS = prepared('batch_lock_users', ['int[]'], `select id, is_active from users where id = any($1) order by id for update`);

/** Locks the users, lowest id first, in one statement; missing users are simply absent. */
export const lockUsers = (ids: readonly number[]): Statement => execute(LOCK_USERS, sqlIntArray(ids));

/**
 * Rows already stored under these (sender, client_id) pairs, each with its upload as JSON (or
 * null): one probe of the unique index per pair (LATERAL … LIMIT 1 keeps the planner from hashing
 * a scan of messages instead).
 */
export const findStored = (pairs: readonly { senderId: number; clientId: string }[]): Statement =>
  execute(FIND_STORED, sqlJson(pairs.map(({ senderId, clientId }) => ({ s: senderId, c: clientId }))));

const FIND_STORED = prepared('batch_find_stored', ['json'], `
  select ${messageRowSql('m')}, m.conversation_id, m.seq, m.version, to_json(u) as upload, ${replySummarySql('m.reply_to_id')} as reply
  from json_to_recordset($1) as k(s int, c text)
  cross join lateral (select * from messages where sender_id = k.s and client_id = k.c limit 1) m
  left join uploads u on u.id = m.attachment_id`);

/**
 * The (sender, recipient) pairs of the batch whose messages must be refused: a block either way,
 * or a recipient whose "who can message me" setting shuts the sender out of a NEW conversation
 * ('nobody'; 'following' unless the recipient follows the sender). An existing conversation (the
 * recipient's row with the sender) continues whatever the setting. Runs after lockUsers in the
 * same round trip, so it sees every block and setting committed before the locks were granted:
 * blocking takes the same user locks (blocks.ts), and a setting is a write to the locked row.
 */
export const findRefusedPairs = (pairs: readonly { senderId: number; recipientId: number }[]): Statement =>
  execute(FIND_REFUSED_PAIRS, sqlJson(pairs.map(({ senderId, recipientId }) => ({ s: senderId, r: recipientId }))));

// Each pair probes its keys (LATERAL … LIMIT 1): as joins and EXISTS, the plan made once for any
// batch hashed a scan of every conversation and account (15 ms at 20,000 conversations).
const FIND_REFUSED_PAIRS = prepared('batch_find_refused_pairs', ['json'], `
  select p.s as sender_id, p.r as recipient_id
  from json_to_recordset($1) as p(s int, r int)
  cross join lateral (select message_policy from users where id = p.r limit 1) ru
  left join lateral (select true as found from blocks
    where (blocker_id = p.r and blocked_id = p.s) or (blocker_id = p.s and blocked_id = p.r) limit 1) block on true
  left join lateral (select true as found from account_conversations where user_id = p.r and peer_id = p.s limit 1) conversation on true
  left join lateral (select true as found from follows where follower_id = p.r and followee_id = p.s limit 1) follow on true
  where block.found
    or (ru.message_policy <> 'everyone' and conversation.found is null
      and (ru.message_policy = 'nobody' or follow.found is null))`);

/**
 * The direct conversations of the batch's pairs (each pair as its smaller id, then its larger), with
 * their newest seq, their number of messages and each person's own number there (the
 * `sender_ordinal` of their newest message: one backward probe of messages_conversation_sender_idx
 * each), from which the batch numbers its messages. Read without a row lock: the
 * heads' writers (this batch and the change batch) both hold both people's user locks, taken just
 * before, so the head cannot move until this batch commits. (An account deletion writes only its
 * own member and list rows, reading the head's seq under its own user lock, which any batch to or
 * from it takes too.)
 */
export const findDirectConversations = (pairs: readonly { low: number; high: number }[]): Statement =>
  execute(FIND_DIRECT_CONVERSATIONS, sqlJson(pairs.map(({ low, high }) => ({ l: low, h: high }))));

const FIND_DIRECT_CONVERSATIONS = prepared('batch_find_direct_conversations', ['json'], `
  select c.id, c.direct_low, c.direct_high, c.last_seq, coalesce(c.message_count, 0) as message_count,
    coalesce(low.sender_ordinal, 0) as low_sent, coalesce(high.sender_ordinal, 0) as high_sent
  from json_to_recordset($1) as p(l int, h int)
  cross join lateral (select id, direct_low, direct_high, last_seq, message_count from conversations_v2
    where kind = 'direct' and direct_low = p.l and direct_high = p.h limit 1) c
  left join lateral (select sender_ordinal from messages
    where conversation_id = c.id and sender_id = p.l order by seq desc limit 1) low on true
  left join lateral (select sender_ordinal from messages
    where conversation_id = c.id and sender_id = p.h order by seq desc limit 1) high on true`);

/**
 * The messages the batch answers (reply_to), each with its sides, whether the answering sender
 * hid it, and the summary a reply carries: checked in JS against each message of the batch.
 */
export const findReplyTargets = (pairs: readonly { senderId: number; replyToId: number }[]): Statement =>
  execute(FIND_REPLY_TARGETS, sqlJson(pairs.map(({ senderId, replyToId }) => ({ s: senderId, m: replyToId }))));

const FIND_REPLY_TARGETS = prepared('batch_find_reply_targets', ['json'], `
  select k.s as answering_sender_id, m.id, m.sender_id, m.recipient_id,
    exists (select 1 from message_hidden h where h.user_id = k.s and h.message_id = m.id) as hidden,
    ${replySummarySql('m.id')} as reply
  from json_to_recordset($1) as k(s int, m bigint)
  cross join lateral (select id, sender_id, recipient_id from messages where id = k.m limit 1) m`);

/**
 * The uploads the batch attaches, locked FOR SHARE until it commits: the sweeper of unattached
 * uploads skips locked rows (SKIP LOCKED), and a row it locked first is seen here only if it
 * survived, so a message never ends up pointing at a deleted file (db/upload-sweep.ts).
 */
export const findUploads = (ids: readonly string[]): Statement => execute(FIND_UPLOADS, sqlJson(ids));

const FIND_UPLOADS = prepared('batch_find_uploads', ['json'], `
  select * from uploads where id in (select json_array_elements_text($1)) for share`);

const ATTACH = `
  attached as (
    update uploads set attached_at = inserted.created_at from inserted
    where uploads.id = inserted.attachment_id and uploads.attached_at is null
  ),`;

/**
 * The batch's writes, one statement: the messages (ids drawn in the batch's order, `order by i`,
 * so they ascend with it), each in its direct conversation at its seq there with its ordinals,
 * and each conversation's head moved to its newest message once, whatever the number of
 * messages, taking its ordinal as the count and noting the transaction (`changed_xid`). Nothing
 * per member or per account: the rows a send writes do not grow with the conversation
 * (docs/design/conversations.md 2.8). Uploads carried for the first time are marked attached,
 * which takes them out of the sweeper's reach.
 *
 * A pair's first message creates its conversation: its id is drawn from the identity's sequence
 * first (a CTE with a volatile function runs once), because its messages need it and its head
 * needs their ids; with it, both members (`wrote` for whoever sent) and both accounts' list rows,
 * all in this statement. Members who wrote for the first time are marked so. A sender who had
 * read everything before the batch has read what they send too: their read position moves to
 * their newest message, so the list and the unread total (unread.ts) need not count a
 * conversation they wrote last; only when they are the batch's one sender in the conversation
 * (two people writing in the same batch is rare, and leaving the position where it was is never
 * wrong: counts leave their own messages out anyway). The head's newest message seq read here is
 * the one before this statement's move (no foreign key names it: server/db/tables/conversations.ts).
 * Heads and members are reached by key, `= any(array(…))`: a plan made once for any batch would
 * otherwise hash a scan of the table to join the values.
 */
export const writeBatch = (fresh: readonly FreshRow[]): Statement =>
  execute(fresh.some((row) => row.attachment_id !== null) ? WRITE_BATCH_ATTACHING : WRITE_BATCH, sqlJson(fresh));

const writeBatchText = (attaching: boolean) => `
  with fresh as (
    select *, least(sender_id, recipient_id) as low, greatest(sender_id, recipient_id) as high
    from json_to_recordset($1) as r(
      i int, sender_id int, recipient_id int, client_id text, "text" text, attachment_id text, reply_to_id bigint,
      conversation_id bigint, seq bigint, ordinal bigint, sender_ordinal bigint)
  ), created as (
    select low, high, nextval(pg_get_serial_sequence('conversations_v2', 'id')) as id
    from fresh where conversation_id is null group by low, high
  ), inserted as (
    insert into messages (sender_id, recipient_id, client_id, text, attachment_id, reply_to_id, conversation_id, seq, version,
      ordinal, sender_ordinal)
    select f.sender_id, f.recipient_id, f.client_id, f."text", f.attachment_id, f.reply_to_id, coalesce(f.conversation_id, c.id),
      f.seq, f.seq, f.ordinal, f.sender_ordinal
    from fresh f left join created c on f.conversation_id is null and c.low = f.low and c.high = f.high
    order by f.i
    returning id, sender_id, recipient_id, client_id, attachment_id, created_at, conversation_id, seq, ordinal
  ),${attaching ? ATTACH : ''} newest as (
    select distinct on (conversation_id) conversation_id, seq, id, created_at, ordinal from inserted
    order by conversation_id, seq desc
  ), heads_moved as (
    update conversations_v2 set last_seq = newest.seq, last_message_seq = newest.seq, last_message_id = newest.id,
      last_message_at = newest.created_at, message_count = newest.ordinal, changed_xid = pg_current_xact_id()
    from newest where conversations_v2.id = any(array(select conversation_id from newest)) and conversations_v2.id = newest.conversation_id
  ), heads_created as (
    insert into conversations_v2
      (id, kind, direct_low, direct_high, created_at, last_seq, last_message_seq, last_message_id, last_message_at, message_count,
        member_count, changed_xid)
      overriding system value
    select c.id, 'direct', c.low, c.high, newest.created_at, newest.seq, newest.seq, newest.id, newest.created_at, newest.ordinal,
      2, pg_current_xact_id()
    from created c join newest on newest.conversation_id = c.id
  ), batch_writers as (
    select conversation_id, sender_id, max(seq) as last_seq, count(*) over (partition by conversation_id) as senders
    from inserted group by conversation_id, sender_id
  ), members_created as (
    insert into conversation_members (conversation_id, user_id, wrote, read_seq, joined_at)
    select c.id, side.user_id, w.sender_id is not null, case when w.senders = 1 then w.last_seq else 0 end, newest.created_at
    from created c join newest on newest.conversation_id = c.id
    cross join lateral (values (c.low, c.high), (c.high, c.low)) as side(user_id, peer_id)
    left join batch_writers w on w.conversation_id = c.id and w.sender_id = side.user_id
  ), accounts_created as (
    insert into account_conversations (user_id, conversation_id, kind, peer_id)
    select side.user_id, c.id, 'direct', side.peer_id
    from created c cross join lateral (values (c.low, c.high), (c.high, c.low)) as side(user_id, peer_id)
  ), writers as (
    update conversation_members set wrote = true,
      read_seq = case when w.moves_read and conversation_members.read_seq >= w.last_read then w.last_seq else conversation_members.read_seq end
    from (select b.conversation_id, b.sender_id, b.last_seq, b.senders = 1 as moves_read,
        coalesce((select h.last_message_seq from conversations_v2 h where h.id = b.conversation_id), 0) as last_read
      from batch_writers b) w
    where conversation_members.conversation_id = any(array(select conversation_id from inserted))
      and conversation_members.conversation_id = w.conversation_id and conversation_members.user_id = w.sender_id
      and (not conversation_members.wrote or (w.moves_read and conversation_members.read_seq >= w.last_read))
  )
  select id, sender_id, client_id, created_at, conversation_id from inserted`;

const WRITE_BATCH_TYPES = ['json'];
const WRITE_BATCH = prepared('batch_write', WRITE_BATCH_TYPES, writeBatchText(false));
const WRITE_BATCH_ATTACHING = prepared('batch_write_attaching', WRITE_BATCH_TYPES, writeBatchText(true));

// Raw rows: int8 arrives as a string from node-postgres, timestamps as Dates or strings.
const int = (value: unknown) => Number(value);
const date = (value: unknown) => new Date(value as string | Date);
const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : date(value));
const intOrNull = (value: unknown) => (value === null || value === undefined ? null : int(value));

export function toMessageRow(row: Row): MessageRow {
  return {
    id: int(row.id),
    senderId: int(row.sender_id),
    recipientId: intOrNull(row.recipient_id),
    clientId: row.client_id as string,
    text: row.text as string,
    attachmentId: row.attachment_id as string | null,
    attachmentRemoved: row.attachment_removed === true,
    createdAt: date(row.created_at),
    editedAt: dateOrNull(row.edited_at),
    deletedAt: dateOrNull(row.deleted_at),
    // jsonb: parsed by both drivers.
    reactions: (row.reactions ?? []) as MessageRow['reactions'],
    replyToId: intOrNull(row.reply_to_id),
  };
}

/** A reply summary from its JSON column (json_build_object, parsed by both drivers). */
export const toReplySummary = (value: unknown) => (value ?? null) as ReplySummary | null;

/** An uploads row, from a result row or from its to_json (find the upload of a stored message). */
export function toUploadRow(row: Row): UploadRow {
  return {
    id: row.id as string,
    ownerId: int(row.owner_id),
    name: row.name as string,
    mimeType: row.mime_type as string,
    size: int(row.size),
    width: row.width === null ? null : int(row.width),
    height: row.height === null ? null : int(row.height),
    storageKey: row.storage_key as string,
    createdAt: date(row.created_at),
    attachedAt: dateOrNull(row.attached_at),
  };
}

/** The new message's row, from what was inserted and what the insert returned. */
export function freshMessageRow(row: FreshRow, returned: Row): MessageRow {
  return {
    id: int(returned.id),
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    clientId: row.client_id,
    text: row.text,
    attachmentId: row.attachment_id,
    attachmentRemoved: false,
    createdAt: date(returned.created_at),
    editedAt: null,
    deletedAt: null,
    reactions: [],
    replyToId: row.reply_to_id,
  };
}
