import { and, asc, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { MessagePayload } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './message-payload';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { rows } from './raw-rows';
import { conversations, messages, uploads, users } from './schema';

export { attachmentOf, messageColumns, toMessagePayload, type NewMessage, type StoredMessage } from './message-payload';

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
 * unread numbers) over exactly the conversations the list shows (conversations.ts): people whose
 * accounts are inactive are left out, deleted accounts are not, and people the user blocked are.
 * So the total always equals the sum of the visible badges. A scalar subquery, so `init` can read
 * it in the same query as the account's state.
 */
const unreadTotal = (userId: SQL | number) => sql<number>`(
  select coalesce(sum(c.unread_count), 0)::int from conversations c
  join users peer on peer.id = c.peer_id
  where c.user_id = ${userId} and (peer.is_active or peer.deleted_at is not null)
    and not exists (select 1 from blocks b where b.blocker_id = c.user_id and b.blocked_id = c.peer_id))`;

export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await rows<{ value: number }>(db, sql`select ${unreadTotal(userId)} as value`);
  return row?.value ?? 0;
}

/**
 * What `init` reads, in one query: whether the account is still active, and its unread total
 * (unreadTotal, as countUnread). Null when there is no such account.
 */
export async function initialCounts(db: Db, userId: number): Promise<{ active: boolean; unread: number; showPresence: boolean } | null> {
  const [row] = await rows<{ active: boolean; unread: number; showPresence: boolean }>(db, sql`
    select u.is_active as active, ${unreadTotal(sql`u.id`)} as unread, u.show_presence as "showPresence"
    from users u where u.id = ${userId}`);
  return row ?? null;
}
