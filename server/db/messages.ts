import { and, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
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

export function toMessagePayload({ message, upload }: { message: MessageRow; upload: UploadRow | null }): MessagePayload {
  return {
    id: message.id,
    client_id: message.clientId,
    sender_id: message.senderId,
    recipient_id: message.recipientId,
    text: message.text,
    attachment: upload ? toAttachment(upload) : null,
    created_at: message.createdAt.toISOString(),
    read_at: message.readAt?.toISOString() ?? null,
  };
}

async function findMessage(db: Db, where: SQL): Promise<MessagePayload | null> {
  const [row] = await db.select(messageColumns).from(messages).leftJoin(uploads, attachmentOf).where(where).limit(1);
  return row ? toMessagePayload(row) : null;
}

export interface StoredMessage {
  message: MessagePayload;
  /** False when the sender's client_id was already stored: `message` is that first row, unchanged. */
  created: boolean;
}

/**
 * Stores a message once per (sender, client_id) and, in the same transaction, moves both sides'
 * conversation rows to it and counts it unread for the recipient. A repeat changes nothing.
 * The caller has checked the recipient and the attachment's owner.
 */
export async function insertMessage(db: Db, message: NewMessage): Promise<StoredMessage> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values(message)
      .onConflictDoNothing({ target: [messages.senderId, messages.clientId] })
      .returning({ id: messages.id, createdAt: messages.createdAt });
    if (row) await touchConversations(tx, message, row);
    const stored = await findMessage(
      tx,
      row
        ? eq(messages.id, row.id)
        : sql`${messages.senderId} = ${message.senderId} and ${messages.clientId} = ${message.clientId}`,
    );
    if (!stored) throw new Error('stored message not found');
    return { message: stored, created: row !== undefined };
  });
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
  return { results: page.results.map(toMessagePayload), next: page.next };
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
