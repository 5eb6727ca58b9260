import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { MessagePayload } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './message-payload';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { rows } from './raw-rows';
import { messages, uploads, users } from './schema';

export { attachmentOf, messageColumns, toMessagePayload, type NewMessage, type StoredMessage } from './message-payload';

/** The account's newest seq (0 before any) and whether it has read receipts on; null for no such account. */
export async function streamStateOf(db: Db, userId: number): Promise<{ lastSeq: number; readReceipts: boolean } | null> {
  const [row] = await db.select({ lastSeq: users.lastSeq, readReceipts: users.readReceipts }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** Messages `userId` deleted for themselves are left out of everything they read. */
export const notHiddenFor = (userId: number) =>
  sql`not exists (select 1 from message_hidden h where h.user_id = ${userId} and h.message_id = ${messages.id})`;

/**
 * One page of the conversation between userId and peerId, newest first, keyset by message id,
 * without the messages userId deleted for themselves. The pair condition is the whole
 * authorisation: every row returned has userId on one side. Served by messages_pair_idx (one
 * backward range scan, no sort). `receipts`: both have read receipts on (toMessagePayload).
 */
export async function listThread(
  db: Db,
  userId: number,
  peerId: number,
  beforeId: number | null,
  limit: number,
  receipts: boolean,
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
        notHiddenFor(userId),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.message.id);
  return { results: page.results.map((row) => toMessagePayload(row, userId, receipts)), next: page.next };
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
