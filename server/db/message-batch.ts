import { inArray, sql } from 'drizzle-orm';
import { toStoredMessage, type NewMessage, type StoredMessage } from './message-payload';
import type { Db } from './open-database';
import { rows } from './raw-rows';
import { uploads, type MessageRow, type UploadRow } from './schema';

/**
 * Why one message of a batch was not stored: its recipient does not exist or is inactive (or is
 * the sender), its attachment is not an upload of the sender's, or the sender no longer exists.
 */
export type Refusal = 'recipient' | 'attachment' | 'sender';

export type BatchOutcome = { stored: StoredMessage } | { refused: Refusal };

/** A message that gets a row: what is inserted, in the batch's order (`i`). */
interface FreshRow {
  i: number;
  sender_id: number;
  recipient_id: number;
  client_id: string;
  text: string;
  attachment_id: string | null;
  sender_seq: number;
  recipient_seq: number;
}

/** `fresh`: the message's index in the rows inserted; `repeat`: a later send of the same key. */
type Plan = BatchOutcome | { fresh: number; repeat: boolean };

const keyOf = (senderId: number, clientId: string) => `${senderId}:${clientId}`;

/**
 * Stores a batch of messages in ONE transaction with a fixed handful of statements, whatever its
 * size, and answers each message on its own (same order as `batch`): stored, as a new row or as
 * the row an earlier send with the same (sender, client_id) left (in the database or earlier in
 * this batch: a repeat changes nothing), or refused.
 *
 * Every user involved is locked first, in id order in one statement: batches on several
 * processes sharing one Postgres therefore queue on their common users and cannot deadlock, and
 * each account's seqs are taken and committed in one order, so a seq is never visible before a
 * smaller one of the same account. Then one query finds the pairs already stored (after the lock:
 * a batch of another process storing the same pair has committed by then), one reads the
 * attachments (if any), seqs are counted in JS from the locked rows, and ONE statement writes
 * everything (writeBatch). Raw SQL on purpose: this is the hot path, and per statement the query
 * builder cost more CPU than the database.
 */
export async function storeMessages(db: Db, batch: readonly NewMessage[]): Promise<BatchOutcome[]> {
  if (batch.length === 0) return [];
  return db.transaction(async (tx) => {
    const accounts = await lockAccounts(tx, batch);
    const earlier = await findStored(tx, batch);
    const uploadsById = await findUploads(tx, [
      ...batch.map((message) => message.attachmentId),
      ...[...earlier.values()].map((row) => row.attachmentId),
    ]);

    const uploadOf = (id: string | null) => (id === null ? null : (uploadsById.get(id) ?? null));

    const fresh: FreshRow[] = [];
    const freshByKey = new Map<string, number>();
    const touched = new Set<number>();
    const plans = batch.map((message): Plan => {
      const key = keyOf(message.senderId, message.clientId);
      const stored = earlier.get(key);
      if (stored) return { stored: toStoredMessage({ message: stored, upload: uploadOf(stored.attachmentId) }, false) };
      const first = freshByKey.get(key);
      if (first !== undefined) return { fresh: first, repeat: true };
      const sender = accounts.get(message.senderId);
      const recipient = accounts.get(message.recipientId);
      if (!sender) return { refused: 'sender' };
      if (!recipient?.active || message.recipientId === message.senderId) return { refused: 'recipient' };
      const attachmentId = message.attachmentId ?? null;
      // Someone else's upload is refused like a missing one: ids are capabilities, not to be probed.
      if (attachmentId !== null && uploadsById.get(attachmentId)?.ownerId !== message.senderId) {
        return { refused: 'attachment' };
      }
      sender.lastSeq += 1;
      recipient.lastSeq += 1;
      touched.add(message.senderId).add(message.recipientId);
      freshByKey.set(key, fresh.length);
      fresh.push({
        i: fresh.length,
        sender_id: message.senderId,
        recipient_id: message.recipientId,
        client_id: message.clientId,
        text: message.text,
        attachment_id: attachmentId,
        sender_seq: sender.lastSeq,
        recipient_seq: recipient.lastSeq,
      });
      return { fresh: fresh.length - 1, repeat: false };
    });
    if (fresh.length === 0) return plans as BatchOutcome[];

    const ids = [...touched];
    const inserted = await writeBatch(tx, fresh, ids, ids.map((id) => accounts.get(id)!.lastSeq));
    const insertedByKey = new Map(inserted.map((row) => [keyOf(row.sender_id, row.client_id), row]));
    const created = fresh.map((row) => {
      const found = insertedByKey.get(keyOf(row.sender_id, row.client_id));
      if (!found) throw new Error('inserted message not returned');
      return { id: Number(found.id), createdAt: found.created_at };
    });

    const storedFresh = fresh.map((row, index) => {
      const { id, createdAt } = created[index]!;
      return toStoredMessage({ message: toMessageRow(row, id, new Date(createdAt)), upload: uploadOf(row.attachment_id) }, true);
    });
    return plans.map((plan): BatchOutcome => {
      if (!('fresh' in plan)) return plan;
      const stored = storedFresh[plan.fresh]!;
      return { stored: plan.repeat ? { ...stored, created: false } : stored };
    });
  });
}

/** Locks every sender and recipient of the batch, lowest id first; missing users are absent. */
async function lockAccounts(db: Db, batch: readonly NewMessage[]) {
  const ids = [...new Set(batch.flatMap((message) => [message.senderId, message.recipientId]))];
  const locked = await rows<{ id: number; is_active: boolean; last_seq: number | string }>(db, sql`
    select id, is_active, last_seq from users where id = any(${sql.param(ids)}::int[]) order by id for update`);
  return new Map(locked.map((row) => [row.id, { active: row.is_active, lastSeq: Number(row.last_seq) }]));
}

/**
 * Rows already stored under one of the batch's (sender, client_id) pairs, by that pair: one probe of
 * the unique index per pair (LATERAL … LIMIT 1 keeps the planner from hashing a scan of messages).
 */
async function findStored(db: Db, batch: readonly NewMessage[]): Promise<Map<string, MessageRow>> {
  const pairs = JSON.stringify(batch.map((message) => ({ s: message.senderId, c: message.clientId })));
  const found = await rows<RawMessage>(db, sql`
    select m.id, m.sender_id, m.recipient_id, m.client_id, m.text, m.attachment_id, m.sender_seq,
      m.recipient_seq, m.created_at, m.read_at
    from json_to_recordset(${pairs}::json) as k(s int, c text)
    cross join lateral (select * from messages where sender_id = k.s and client_id = k.c limit 1) m`);
  return new Map(found.map((row) => [keyOf(row.sender_id, row.client_id), fromRawMessage(row)]));
}

async function findUploads(db: Db, ids: readonly (string | null | undefined)[]): Promise<Map<string, UploadRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const found = await db.select().from(uploads).where(inArray(uploads.id, wanted));
  return new Map(found.map((row) => [row.id, row]));
}

/** A messages row as the driver returns it to raw SQL: int8 may be a string, timestamps are. */
interface RawMessage {
  id: number | string;
  sender_id: number;
  recipient_id: number;
  client_id: string;
  text: string;
  attachment_id: string | null;
  sender_seq: number | string;
  recipient_seq: number | string;
  created_at: string | Date;
  read_at: string | Date | null;
}

function fromRawMessage(row: RawMessage): MessageRow {
  return {
    id: Number(row.id),
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    clientId: row.client_id,
    text: row.text,
    attachmentId: row.attachment_id,
    senderSeq: Number(row.sender_seq),
    recipientSeq: Number(row.recipient_seq),
    createdAt: new Date(row.created_at),
    readAt: row.read_at === null ? null : new Date(row.read_at),
  };
}

/**
 * The batch's writes, one statement: the accounts' new last_seq, the messages (ids drawn in the
 * batch's order, `order by i`, so they ascend with it), and both sides' conversation rows moved to
 * their newest message, the recipient's counting the new ones unread: one row per (user, peer)
 * (ON CONFLICT may touch a row only once), in key order. SET expressions read the row as it was,
 * so last_message_at is judged against the old id. A conversation row's foreign key to a message
 * inserted by the same statement is checked at its end, when the message is there.
 */
async function writeBatch(db: Db, fresh: FreshRow[], userIds: number[], lastSeqs: number[]) {
  return rows<{ id: number | string; sender_id: number; client_id: string; created_at: string | Date }>(db, sql`
    with seqs as (
      update users set last_seq = v.last_seq
      from unnest(${sql.param(userIds)}::int[], ${sql.param(lastSeqs)}::bigint[]) as v(id, last_seq)
      where users.id = v.id
    ), inserted as (
      insert into messages (sender_id, recipient_id, client_id, text, attachment_id, sender_seq, recipient_seq)
      select sender_id, recipient_id, client_id, "text", attachment_id, sender_seq, recipient_seq
      from json_to_recordset(${JSON.stringify(fresh)}::json) as r(
        i int, sender_id int, recipient_id int, client_id text, "text" text, attachment_id text,
        sender_seq bigint, recipient_seq bigint)
      order by i
      returning id, sender_id, recipient_id, client_id, created_at
    ), sides as (
      select sender_id as user_id, recipient_id as peer_id, id, created_at, 0 as unread from inserted
      union all
      select recipient_id, sender_id, id, created_at, 1 from inserted
    ), conversations_moved as (
      insert into conversations (user_id, peer_id, last_message_id, last_message_at, unread_count)
      select user_id, peer_id, max(id), (array_agg(created_at order by id desc))[1], sum(unread)
      from sides group by user_id, peer_id
      order by user_id, peer_id
      on conflict (user_id, peer_id) do update set
        last_message_at = case when excluded.last_message_id > conversations.last_message_id
          then excluded.last_message_at else conversations.last_message_at end,
        last_message_id = greatest(conversations.last_message_id, excluded.last_message_id),
        unread_count = conversations.unread_count + excluded.unread_count
    )
    select id, sender_id, client_id, created_at from inserted`);
}

function toMessageRow(row: FreshRow, id: number, createdAt: Date): MessageRow {
  return {
    id,
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    clientId: row.client_id,
    text: row.text,
    attachmentId: row.attachment_id,
    senderSeq: row.sender_seq,
    recipientSeq: row.recipient_seq,
    createdAt,
    readAt: null,
  };
}
