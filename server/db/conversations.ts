import { and, desc, eq, lt } from 'drizzle-orm';
import type { Conversation } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './messages';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { userSummaryColumns } from './people';
import { conversations, messages, uploads, users } from './schema';

/**
 * One page of the user's conversations, newest last message first, keyset by last_message_id
 * (unique per user: a message belongs to one pair). People whose accounts are inactive are left
 * out, as everywhere. Served by conversations_recent_idx, then one primary-key lookup per row.
 */
export async function listConversations(
  db: Db,
  userId: number,
  beforeMessageId: number | null,
  limit: number,
): Promise<KeysetPage<Conversation, number>> {
  const rows = await db
    .select({ ...messageColumns, user: userSummaryColumns(userId), unreadCount: conversations.unreadCount })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.peerId))
    .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        eq(conversations.userId, userId),
        eq(users.isActive, true),
        beforeMessageId === null ? undefined : lt(conversations.lastMessageId, beforeMessageId),
      ),
    )
    .orderBy(desc(conversations.lastMessageId))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.message.id);
  return {
    results: page.results.map((row) => ({
      user: row.user,
      last_message: toMessagePayload(row, userId),
      unread_count: row.unreadCount,
    })),
    next: page.next,
  };
}
