import { and, asc, desc, eq, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { MessagePayload } from '../../lib/contract';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { conversations, messages, uploads, users, type MessageRow, type UploadRow } from './schema';
import { toAttachment } from './uploads';

export interface NewMessage {
  senderId: number;
  recipientId: number;
  clientId: string;
  text: string;
  attachmentId?: string | null;
}

/** Selects a message with its attachment: `.from(messages)` plus attachmentOf's join. */
export const messageColumns = { message: messages, upload: uploads };

/** The join that fills MessagePayload.attachment; pair it with messageColumns. */
export const attachmentOf = eq(uploads.id, messages.attachmentId);

/** A message as `viewerId` (its sender or its recipient) sees it: `seq` is the viewer's. */
export function toMessagePayload(
  { message, upload }: { message: MessageRow; upload: UploadRow | null },
  viewerId: number,
): MessagePayload {
  return {
    id: message.id,
    client_id: message.clientId,
    sender_id: message.senderId,
    recipient_id: message.recipientId,
    text: message.text,
    attachment: upload ? toAttachment(upload) : null,
    created_at: message.createdAt.toISOString(),
    read_at: message.readAt?.toISOString() ?? null,
    seq: message.senderId === viewerId ? message.senderSeq : message.recipientSeq,
  };
}

type MessageWithUpload = { message: MessageRow; upload: UploadRow | null };

async function findMessage(db: Db, where: SQL): Promise<MessageWithUpload | null> {
  const [row] = await db.select(messageColumns).from(messages).leftJoin(uploads, attachmentOf).where(where).limit(1);
  return row ?? null;
}

export interface StoredMessage {
  /** The stored message as its sender sees it. */
  message: MessagePayload;
  /** The same message as its recipient sees it (their seq). */
  forRecipient: MessagePayload;
  /** False when the sender's client_id was already stored: `message` is that first row, unchanged. */
  created: boolean;
}

/**
 * Stores a message once per (sender, client_id) and, in the same transaction, gives it the next
 * seq of both accounts, moves both sides' conversation rows to it and counts it unread for the
 * recipient. A repeat changes nothing. The caller has checked the recipient and the attachment.
 *
 * Both users' rows are locked first, lowest id first (no deadlock between A→B and B→A): the seqs
 * are then taken, stored and committed in one order per account, so a seq is never visible before
 * a smaller one of the same account, and a retry of the same client_id waits for the first try.
 */
export async function insertMessage(db: Db, message: NewMessage): Promise<StoredMessage> {
  const { senderId, recipientId, clientId } = message;
  return db.transaction(async (tx) => {
    await tx
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [senderId, recipientId]))
      .orderBy(users.id)
      .for('update');
    const existing = await findMessage(tx, and(eq(messages.senderId, senderId), eq(messages.clientId, clientId))!);
    if (existing) return storedMessage(existing, false);

    const seqs = await tx
      .update(users)
      .set({ lastSeq: sql`${users.lastSeq} + 1` })
      .where(inArray(users.id, [senderId, recipientId]))
      .returning({ id: users.id, lastSeq: users.lastSeq });
    const seqOf = (userId: number) => {
      const seq = seqs.find((row) => row.id === userId)?.lastSeq;
      if (seq === undefined) throw new Error(`user ${userId} not found`);
      return seq;
    };
    const [row] = await tx
      .insert(messages)
      .values({ ...message, senderSeq: seqOf(senderId), recipientSeq: seqOf(recipientId) })
      .returning({ id: messages.id, createdAt: messages.createdAt });
    await touchConversations(tx, message, row!);
    const stored = await findMessage(tx, eq(messages.id, row!.id));
    if (!stored) throw new Error('stored message not found');
    return storedMessage(stored, true);
  });
}

function storedMessage(row: MessageWithUpload, created: boolean): StoredMessage {
  return {
    message: toMessagePayload(row, row.message.senderId),
    forRecipient: toMessagePayload(row, row.message.recipientId),
    created,
  };
}

export interface SyncPage {
  messages: MessagePayload[];
  hasMore: boolean;
}

/**
 * The account's messages (sent and received) with seq > after, oldest first, at most `limit`.
 * Two range scans, one per side's unique (user, seq) index, merged: no sort of the whole backlog.
 */
export async function listMessagesAfter(db: Db, userId: number, after: number, limit: number): Promise<SyncPage> {
  const side = (userColumn: PgColumn, seqColumn: PgColumn) =>
    db
      .select(messageColumns)
      .from(messages)
      .leftJoin(uploads, attachmentOf)
      .where(and(eq(userColumn, userId), gt(seqColumn, after)))
      .orderBy(asc(seqColumn))
      .limit(limit + 1);
  const [sent, received] = await Promise.all([
    side(messages.senderId, messages.senderSeq),
    side(messages.recipientId, messages.recipientSeq),
  ]);
  const merged = [...sent, ...received].map((row) => toMessagePayload(row, userId)).sort((a, b) => a.seq - b.seq);
  return { messages: merged.slice(0, limit), hasMore: merged.length > limit };
}

/** The seq of the account's newest message (0 before any). */
export async function lastSeqOf(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ lastSeq: users.lastSeq }).from(users).where(eq(users.id, userId));
  return row?.lastSeq ?? 0;
}

async function touchConversations(db: Db, message: NewMessage, row: { id: number; createdAt: Date }): Promise<void> {
  const sides = [
    { userId: message.senderId, peerId: message.recipientId, unreadCount: 0 },
    { userId: message.recipientId, peerId: message.senderId, unreadCount: 1 },
  ]
    // Rows are locked in this order; the same order for A→B and B→A sends means no deadlock.
    .sort((a, b) => a.userId - b.userId)
    .map((side) => ({ ...side, lastMessageId: row.id, lastMessageAt: row.createdAt }));
  // SET expressions all read the row as it was, so last_message_at is judged against the old id.
  await db
    .insert(conversations)
    .values(sides)
    .onConflictDoUpdate({
      target: [conversations.userId, conversations.peerId],
      set: {
        lastMessageAt: sql`case when excluded.last_message_id > ${conversations.lastMessageId} then excluded.last_message_at else ${conversations.lastMessageAt} end`,
        lastMessageId: sql`greatest(${conversations.lastMessageId}, excluded.last_message_id)`,
        unreadCount: sql`${conversations.unreadCount} + excluded.unread_count`,
      },
    });
}

/**
 * One page of the conversation between userId and peerId, newest first, keyset by message id.
 * The pair condition is the whole authorisation: every row returned has userId on one side.
 * Served by messages_pair_idx (one backward range scan, no sort).
 */
export async function listThread(
  db: Db,
  userId: number,
  peerId: number,
  beforeId: number | null,
  limit: number,
): Promise<KeysetPage<MessagePayload, number>> {
  const rows = await db
    .select(messageColumns)
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        sql`least(${messages.senderId}, ${messages.recipientId}) = ${Math.min(userId, peerId)}`,
        sql`greatest(${messages.senderId}, ${messages.recipientId}) = ${Math.max(userId, peerId)}`,
        beforeId === null ? undefined : lt(messages.id, beforeId),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.message.id);
  return { results: page.results.map((row) => toMessagePayload(row, userId)), next: page.next };
}

/**
 * Marks peerId's unread messages to userId read and takes exactly that many off the conversation's
 * counter (not "set to 0": a message sent meanwhile stays counted). Returns the user's new total.
 */
export async function markConversationRead(db: Db, userId: number, peerId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(messages)
      .set({ readAt: sql`now()` })
      .where(and(eq(messages.recipientId, userId), eq(messages.senderId, peerId), isNull(messages.readAt)))
      .returning({ id: messages.id });
    if (marked.length > 0) {
      await tx
        .update(conversations)
        .set({ unreadCount: sql`${conversations.unreadCount} - ${marked.length}` })
        .where(and(eq(conversations.userId, userId), eq(conversations.peerId, peerId)));
    }
    return countUnread(tx, userId);
  });
}

/**
 * The user's unread total: the sum of their conversations' counters (the one source of truth for
 * unread numbers), leaving out people whose accounts are inactive, as the conversation list does.
 */
export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`coalesce(sum(${conversations.unreadCount}), 0)::int` })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.peerId))
    .where(and(eq(conversations.userId, userId), eq(users.isActive, true)));
  return row?.value ?? 0;
}
