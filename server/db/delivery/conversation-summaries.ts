// An account's conversations as its list shows them (ConversationSummary: socket protocol 2's rows),
// read two ways: by recency, the list's pages (GET /api/c), and by id, those whose heads moved since
// a horizon (`sync_account`: account-stream.ts). One select serves both, so a row caught up looks
// exactly like the same row listed.
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { SYNC_CONVERSATIONS_PAGE, type ConversationMessage, type ConversationSummary } from '../../../lib/contract';
import { attachmentOf, conversationMessageColumns, toConversationMessage } from './message-payload';
import type { Db } from '../engine/open-database';
import { toKeysetPage, type KeysetPage } from '../engine/paging';
import { userSummaryColumns } from '../people';
import { hasBlocked } from '../safety-rules';
import { unreadFromOrdinalsSql } from '../unread';
import { accountConversations, conversationMembers, conversationsV2, messages, uploads, users } from '../schema';

/** Messages by id as every member sees them (hide items' previews, list rows' last messages). */
export async function messagesById(db: Db, ids: readonly number[]): Promise<Map<number, ConversationMessage>> {
  if (ids.length === 0) return new Map();
  const found = await db
    .select(conversationMessageColumns)
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(inArray(messages.id, [...new Set(ids)]));
  return new Map(found.map((row) => [row.message.id, toConversationMessage(row)]));
}

/** The end of the member's window: where they left, or the conversation's newest seq. */
const windowEnd = sql<number>`coalesce(${conversationMembers.leftSeq}, ${conversationsV2.lastSeq})`;

/**
 * The message a member's list row shows: the head's newest, unless it is outside their window or
 * they deleted it for themselves, then the newest of their window they did not (a backward scan of
 * messages_conversation_seq_idx that stops at the first). COALESCE evaluates the scan only then.
 */
const shownMessageId = sql<string | number | null>`coalesce(
  (select ${conversationsV2.lastMessageId} where ${conversationsV2.lastMessageSeq} <= ${windowEnd}
    and ${conversationsV2.lastMessageSeq} > ${conversationMembers.joinedSeq}
    and not exists (select 1 from message_hidden h where h.user_id = ${conversationMembers.userId} and h.message_id = ${conversationsV2.lastMessageId})),
  (select x.id from messages x where x.conversation_id = ${conversationsV2.id} and x.seq <= ${windowEnd} and x.seq > ${conversationMembers.joinedSeq}
    and not exists (select 1 from message_hidden h2 where h2.user_id = ${conversationMembers.userId} and h2.message_id = x.id)
    order by x.seq desc limit 1))`;

/** The member's unread count, from the ordinals (unread.ts). */
const unreadCount = sql<number>`${sql.raw(unreadFromOrdinalsSql('"conversation_members"', '"conversations_v2"'))}`;

/** Whether the list shows a conversation: not a direct one whose other person is deactivated (not deleted) or blocked by the account. */
const listed = (userId: number) =>
  or(isNull(accountConversations.peerId), and(sql`(${users.isActive} or ${users.deletedAt} is not null)`, sql`not ${hasBlocked(userId, sql`${accountConversations.peerId}`)}`));

type SummaryRow = { key: number | null; summary: ConversationSummary | { removed: number } };

/**
 * The account's conversations matching `where` and `filter`, in `orderBy` (recent: the head's
 * newest message first; id), at most `limit`: as its list shows them, or by id alone for those it
 * does not show (`listed`), each with its head's newest message id as `key` (the list's keyset).
 * Two steps in one statement: first the account's rows, their heads, members and people are
 * filtered and put in order, and cut to `limit`; only then is each of those read whole (its unread
 * count, its person's summary, the message it shows: those come last, in messagesById). So an
 * account in 1,000 conversations pays a few probes for each and the counts for a page's worth
 * (docs/BENCHMARKS.md, "Counts from ordinals").
 */
async function readSummaries(db: Db, userId: number, where: SQL | undefined, orderBy: 'recent' | 'id', limit: number, filter?: SQL): Promise<SummaryRow[]> {
  const candidate = db
    .select({ id: accountConversations.conversationId, key: conversationsV2.lastMessageId })
    .from(accountConversations)
    .innerJoin(conversationsV2, eq(conversationsV2.id, accountConversations.conversationId))
    .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, accountConversations.conversationId), eq(conversationMembers.userId, userId)))
    .leftJoin(users, eq(users.id, accountConversations.peerId))
    .where(and(eq(accountConversations.userId, userId), where, filter))
    .orderBy(orderBy === 'recent' ? desc(conversationsV2.lastMessageId) : asc(accountConversations.conversationId))
    .limit(limit)
    .as('candidate');
  const found = await db
    .select({
      conversationId: accountConversations.conversationId,
      kind: conversationsV2.kind,
      peerId: accountConversations.peerId,
      user: userSummaryColumns(userId),
      end: windowEnd,
      readSeq: conversationMembers.readSeq,
      muted: conversationMembers.muted,
      left: sql<boolean>`${conversationMembers.leftAt} is not null`,
      unreadCount,
      key: candidate.key,
      listed: sql<boolean>`coalesce(${listed(userId)}, false)`,
      shownId: shownMessageId,
    })
    .from(candidate)
    .innerJoin(accountConversations, and(eq(accountConversations.userId, userId), eq(accountConversations.conversationId, candidate.id)))
    .innerJoin(conversationsV2, eq(conversationsV2.id, candidate.id))
    .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, candidate.id), eq(conversationMembers.userId, userId)))
    .leftJoin(users, eq(users.id, accountConversations.peerId))
    .orderBy(orderBy === 'recent' ? desc(candidate.key) : asc(candidate.id));
  const shown = await messagesById(db, found.flatMap((row) => (row.listed && row.shownId !== null ? [Number(row.shownId)] : [])));
  return found.map((row) => ({
    key: row.key,
    summary: row.listed
      ? {
          conversation_id: row.conversationId,
          kind: row.kind as ConversationSummary['kind'],
          user: row.peerId === null ? null : row.user,
          last_seq: Number(row.end),
          last_message: row.shownId === null ? null : (shown.get(Number(row.shownId)) ?? null),
          read_seq: row.readSeq,
          unread_count: Number(row.unreadCount),
          muted: row.muted,
          left: row.left,
        }
      : { removed: row.conversationId },
  }));
}

/**
 * The account's conversations whose heads moved at or past `horizon`, after `afterConversation`,
 * by id, at most SYNC_CONVERSATIONS_PAGE + 1: as its list shows them, or by id alone for those it
 * no longer shows (a block, an unblock, a deactivation and a deletion move the heads they hide or
 * bring back: conversations.ts, `touchConversations`).
 */
export async function changedConversations(db: Db, userId: number, horizon: string, afterConversation: number): Promise<(ConversationSummary | { removed: number })[]> {
  const found = await readSummaries(
    db,
    userId,
    and(gt(accountConversations.conversationId, afterConversation), sql`${conversationsV2.changedXid} >= ${horizon}::xid8`),
    'id',
    SYNC_CONVERSATIONS_PAGE + 1,
  );
  return found.map((row) => row.summary);
}

/**
 * One page of the account's list by conversation (GET /api/c), newest message first, keyset by the
 * head's newest message id (unique: a message belongs to one conversation), each as `sync_account`
 * reports it, those the list shows (`listed`, above). A conversation whose every
 * message in the member's window they deleted for themselves is left out until someone writes
 * again. The account's heads are read and sorted: nothing orders an account's conversations by
 * recency across conversations (design 6).
 */
export async function listConversationSummaries(db: Db, userId: number, beforeMessageId: number | null, limit: number): Promise<KeysetPage<ConversationSummary, number>> {
  const found = await readSummaries(
    db,
    userId,
    beforeMessageId === null ? undefined : lt(conversationsV2.lastMessageId, beforeMessageId),
    'recent',
    limit + 1,
    and(listed(userId), sql`${shownMessageId} is not null`),
  );
  const page = toKeysetPage(found, limit, (row) => Number(row.key));
  return { results: page.results.map((row) => row.summary as ConversationSummary), next: page.next };
}
