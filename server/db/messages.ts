import { and, asc, desc, eq, gt, lt, lte, sql, type Placeholder } from 'drizzle-orm';
import { THREAD_PAGE_SIZE, type MessagePayload } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { toKeysetPage, type KeysetPage } from './engine/paging';
import { rows } from './engine/raw-rows';
import { sqlInt } from './engine/script-transaction';
import { messages, uploads, users } from './schema';
import { unreadTotalSql } from './unread';


/** The account's newest seq (0 before any) and whether it has read receipts on; null for no such account. */
export async function streamStateOf(db: Db, userId: number): Promise<{ lastSeq: number; readReceipts: boolean } | null> {
  const [row] = await db.select({ lastSeq: users.lastSeq, readReceipts: users.readReceipts }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** Messages `userId` deleted for themselves are left out of everything they read. */
export const notHiddenFor = (userId: number | Placeholder) =>
  sql`not exists (select 1 from message_hidden h where h.user_id = ${userId} and h.message_id = ${messages.id})`;

/**
 * Rows one statement of a thread page reads at most: the app's page (THREAD_PAGE_SIZE) and the
 * row that says whether there is another. A page of 100 read in one statement held PGlite's one
 * connection for 8–16 ms, and the others' sends waited behind it; in two, each holds it half as
 * long and another account's work takes its turn between them (db/engine/account-turns.ts).
 */
const THREAD_READ_ROWS = THREAD_PAGE_SIZE + 1;

/**
 * Where a page starts: a seq of the conversation, or (a cursor that is none of its messages, which
 * no page of ours hands out) a message id, compared as ids; the two orders agree inside a
 * conversation (testing/conversation-model.ts holds the model to it).
 */
type Bound = { seq: number } | { id: number } | null;

/**
 * The user's direct conversation with peerId, and `messageId`'s seq in it (null: not one of its
 * messages); null when they have none. One lookup by the list row's key, one by primary key.
 */
async function threadPlace(db: Db, userId: number, peerId: number, messageId: number | null) {
  const [row] = await rows<{ conversation_id: string | number; seq: string | number | null }>(
    db,
    sql`select a.conversation_id, b.seq from account_conversations a
      left join messages b on b.id = ${messageId ?? 0} and b.conversation_id = a.conversation_id
      where a.user_id = ${userId} and a.peer_id = ${peerId}`,
  );
  return row ? { conversationId: Number(row.conversation_id), seq: row.seq === null ? null : Number(row.seq) } : null;
}

/**
 * Up to `limit + 1` messages of the pair's conversation past message `fromId` in one direction
 * (older: before it, or from it with `inclusive`; newer: after it), without the ones userId hid,
 * nearest first, read THREAD_READ_ROWS at a time, each read taking up after the last one's
 * farthest seq. Reading through the user's own list row is the whole authorisation. Served by
 * messages_conversation_seq_idx, one range scan either way, no sort.
 */
async function threadRows(db: Db, userId: number, peerId: number, direction: 'older' | 'newer', fromId: number | null, limit: number, inclusive = false) {
  const place = await threadPlace(db, userId, peerId, fromId);
  const found: Awaited<ReturnType<typeof threadRead>> = [];
  if (!place) return found;
  let from: Bound = fromId === null ? null : place.seq === null ? { id: fromId } : { seq: place.seq };
  let fromInclusive = inclusive;
  for (;;) {
    const count = Math.min(limit + 1 - found.length, THREAD_READ_ROWS);
    const read = await threadRead(db, userId, place.conversationId, direction, from, count, fromInclusive);
    found.push(...read);
    if (read.length < count || found.length > limit) return found;
    from = { seq: read[read.length - 1]!.seq };
    fromInclusive = false;
  }
}

/** One statement of threadRows: at most `count` rows of the conversation past `bound`. */
function threadRead(db: Db, userId: number, conversationId: number, direction: 'older' | 'newer', bound: Bound, count: number, inclusive = false) {
  const column = bound !== null && 'id' in bound ? messages.id : messages.seq;
  const value = bound === null ? 0 : 'id' in bound ? bound.id : bound.seq;
  const boundCondition =
    bound === null ? undefined : direction === 'newer' ? gt(column, value) : inclusive ? lte(column, value) : lt(column, value);
  return db
    .select({ ...messageColumns, seq: messages.seq })
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(and(eq(messages.conversationId, conversationId), boundCondition, notHiddenFor(userId)))
    .orderBy(direction === 'newer' ? asc(messages.seq) : desc(messages.seq))
    .limit(count);
}

/** A thread page, newest first; `older`/`newer`: the keyset (message id) of the next page each way, null at either end. */
export interface ThreadWindow {
  results: MessagePayload[];
  older: number | null;
  newer: number | null;
}

/**
 * One page of the conversation between userId and peerId, newest first, keyset by message id,
 * without the messages userId deleted for themselves. `receipts`: both have read receipts on
 * (toMessagePayload).
 */
export async function listThread(
  db: Db,
  userId: number,
  peerId: number,
  beforeId: number | null,
  limit: number,
  receipts: boolean,
): Promise<KeysetPage<MessagePayload, number>> {
  const page = toKeysetPage(await threadRows(db, userId, peerId, 'older', beforeId, limit), limit, (row) => row.message.id);
  return { results: page.results.map((row) => toMessagePayload(row, userId, receipts)), next: page.next };
}

/** The page of messages right after `afterId` (a newer cursor), newest first like every page. */
export async function listThreadNewer(db: Db, userId: number, peerId: number, afterId: number, limit: number, receipts: boolean): Promise<ThreadWindow> {
  const page = toKeysetPage(await threadRows(db, userId, peerId, 'newer', afterId, limit), limit, (row) => row.message.id);
  return { results: page.results.map((row) => toMessagePayload(row, userId, receipts)).reverse(), older: null, newer: page.next };
}

/**
 * A page centred on message `aroundId`: it and the older half of `limit` (rounded up), and the
 * newer half, newest first, with the keyset of the next page each way. Null when the message is
 * not one of the pair's that userId sees (unknown, someone else's and hidden answer alike).
 */
export async function listThreadAround(
  db: Db,
  userId: number,
  peerId: number,
  aroundId: number,
  limit: number,
  receipts: boolean,
): Promise<ThreadWindow | null> {
  const olderLimit = Math.ceil(limit / 2);
  const newerLimit = limit - olderLimit;
  const [olderRows, newerRows] = await Promise.all([
    threadRows(db, userId, peerId, 'older', aroundId, olderLimit, true),
    newerLimit > 0 ? threadRows(db, userId, peerId, 'newer', aroundId, newerLimit) : Promise.resolve([]),
  ]);
  if (olderRows[0]?.message.id !== aroundId) return null;
  const older = toKeysetPage(olderRows, olderLimit, (row) => row.message.id);
  // With limit 1 there is no newer half: whether newer messages exist is still worth a cursor.
  const newer = newerLimit > 0 ? toKeysetPage(newerRows, newerLimit, (row) => row.message.id) : { results: [], next: null };
  return {
    results: [...[...newer.results].reverse(), ...older.results].map((row) => toMessagePayload(row, userId, receipts)),
    older: older.next,
    newer: newerLimit > 0 ? newer.next : await hasNewer(db, userId, peerId, aroundId),
  };
}

/** `afterId` as the newer cursor when any message follows it, else null. */
async function hasNewer(db: Db, userId: number, peerId: number, afterId: number): Promise<number | null> {
  const rows = await threadRows(db, userId, peerId, 'newer', afterId, 0);
  return rows.length > 0 ? afterId : null;
}

const unreadTotal = (userId: string) => sql.raw(unreadTotalSql(userId));

export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await rows<{ value: number }>(db, sql`select ${unreadTotal(sqlInt(userId))} as value`);
  return row?.value ?? 0;
}

/**
 * What `init` reads, in one query: whether the account is still active, and its unread total
 * (unreadTotal, as countUnread). Null when there is no such account.
 */
export async function initialCounts(db: Db, userId: number): Promise<{ active: boolean; unread: number; showPresence: boolean } | null> {
  const [row] = await rows<{ active: boolean; unread: number; showPresence: boolean }>(db, sql`
    select u.is_active as active, ${unreadTotal('u.id')} as unread, u.show_presence as "showPresence"
    from users u where u.id = ${userId}`);
  return row ?? null;
}
