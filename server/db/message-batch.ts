import { inArray, sql } from 'drizzle-orm';
import { attachmentOf, messageColumns, toStoredMessage, type MessageWithUpload, type NewMessage, type StoredMessage } from './message-payload';
import type { Db } from './open-database';
import { rows } from './raw-rows';
import { messages, uploads, type UploadRow } from './schema';

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

interface ConversationSide {
  user_id: number;
  peer_id: number;
  last_message_id: number;
  last_message_at: string;
  unread_count: number;
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
 * smaller one of the same account. Seqs are counted in JS from the locked rows, then written back
 * with one update; the messages go in with one insert (ids follow the batch's order, so threads,
 * shown by id, keep the order messages were sent in); each (user, peer) conversation row is moved
 * once per batch, with the sum of its new unread messages. Raw SQL on purpose: this is the hot path
 * and drizzle's query builder cost more CPU than the database.
 */
export async function storeMessages(db: Db, batch: readonly NewMessage[]): Promise<BatchOutcome[]> {
  if (batch.length === 0) return [];
  return db.transaction(async (tx) => {
    const accounts = await lockAccounts(tx, batch);
    const earlier = await findStored(tx, batch);
    const uploadsById = await findUploads(tx, batch);

    const fresh: FreshRow[] = [];
    const freshByKey = new Map<string, number>();
    const touched = new Set<number>();
    const plans = batch.map((message): Plan => {
      const key = keyOf(message.senderId, message.clientId);
      const stored = earlier.get(key);
      if (stored) return { stored: toStoredMessage(stored, false) };
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
    await tx.execute(sql`
      update users set last_seq = v.last_seq
      from unnest(${sql.param(ids)}::int[], ${sql.param(ids.map((id) => accounts.get(id)!.lastSeq))}::bigint[]) as v(id, last_seq)
      where users.id = v.id`);
    const inserted = await rows<{ id: number | string; sender_id: number; client_id: string; created_at: string | Date }>(tx, sql`
      insert into messages (sender_id, recipient_id, client_id, text, attachment_id, sender_seq, recipient_seq)
      select sender_id, recipient_id, client_id, "text", attachment_id, sender_seq, recipient_seq
      from json_to_recordset(${JSON.stringify(fresh)}::json) as r(
        i int, sender_id int, recipient_id int, client_id text, "text" text, attachment_id text,
        sender_seq bigint, recipient_seq bigint)
      order by i
      returning id, sender_id, client_id, created_at`);
    // Ids are drawn in the select's order (order by i): a batch's messages get ascending ids.
    const insertedByKey = new Map(inserted.map((row) => [keyOf(row.sender_id, row.client_id), row]));
    const created = fresh.map((row) => {
      const found = insertedByKey.get(keyOf(row.sender_id, row.client_id));
      if (!found) throw new Error('inserted message not returned');
      return { id: Number(found.id), createdAt: found.created_at };
    });
    await touchConversations(tx, fresh, created);

    const storedFresh = fresh.map((row, index) => {
      const { id, createdAt } = created[index]!;
      const upload = row.attachment_id === null ? null : (uploadsById.get(row.attachment_id) ?? null);
      return toStoredMessage({ message: toMessageRow(row, id, new Date(createdAt)), upload }, true);
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

/** Rows already stored under one of the batch's (sender, client_id) pairs, by that pair. */
async function findStored(db: Db, batch: readonly NewMessage[]): Promise<Map<string, MessageWithUpload>> {
  const pairs = JSON.stringify(batch.map((message) => ({ s: message.senderId, c: message.clientId })));
  const found = await db
    .select(messageColumns)
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(
      sql`(${messages.senderId}, ${messages.clientId}) in (select s, c from json_to_recordset(${pairs}::json) as k(s int, c text))`,
    );
  return new Map(found.map((row) => [keyOf(row.message.senderId, row.message.clientId), row]));
}

async function findUploads(db: Db, batch: readonly NewMessage[]): Promise<Map<string, UploadRow>> {
  const ids = [...new Set(batch.flatMap((message) => (message.attachmentId ? [message.attachmentId] : [])))];
  if (ids.length === 0) return new Map();
  const found = await db.select().from(uploads).where(inArray(uploads.id, ids));
  return new Map(found.map((row) => [row.id, row]));
}

/**
 * Both sides' conversation rows move to their newest message; the recipient's counts the new ones
 * unread. One row per (user, peer) per statement (ON CONFLICT may touch a row only once), in key
 * order. SET expressions all read the row as it was, so last_message_at is judged against the old id.
 */
async function touchConversations(db: Db, fresh: FreshRow[], created: { id: number; createdAt: string | Date }[]) {
  const sides = new Map<string, ConversationSide>();
  const touch = (userId: number, peerId: number, id: number, at: string, unread: number) => {
    const key = `${userId}:${peerId}`;
    const side = sides.get(key);
    if (!side) return void sides.set(key, { user_id: userId, peer_id: peerId, last_message_id: id, last_message_at: at, unread_count: unread });
    if (id > side.last_message_id) Object.assign(side, { last_message_id: id, last_message_at: at });
    side.unread_count += unread;
  };
  fresh.forEach((row, index) => {
    const { id, createdAt } = created[index]!;
    const at = createdAt instanceof Date ? createdAt.toISOString() : createdAt;
    touch(row.sender_id, row.recipient_id, id, at, 0);
    touch(row.recipient_id, row.sender_id, id, at, 1);
  });
  await db.execute(sql`
    insert into conversations (user_id, peer_id, last_message_id, last_message_at, unread_count)
    select user_id, peer_id, last_message_id, last_message_at, unread_count
    from json_to_recordset(${JSON.stringify([...sides.values()])}::json) as c(
      user_id int, peer_id int, last_message_id bigint, last_message_at timestamptz, unread_count int)
    order by user_id, peer_id
    on conflict (user_id, peer_id) do update set
      last_message_at = case when excluded.last_message_id > conversations.last_message_id
        then excluded.last_message_at else conversations.last_message_at end,
      last_message_id = greatest(conversations.last_message_id, excluded.last_message_id),
      unread_count = conversations.unread_count + excluded.unread_count`);
}

function toMessageRow(row: FreshRow, id: number, createdAt: Date): MessageWithUpload['message'] {
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
