import { and, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Conversation } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './messages';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { userSummaryColumns } from './people';
import { hasBlocked } from './safety-rules';
import { conversations, messages, uploads, users } from './schema';

/**
 * One page of the user's conversations, newest last message first, keyset by last_message_id
 * (unique per user: a message belongs to one pair). People whose accounts are inactive are left
 * out, as everywhere, except deleted accounts (the conversation is the user's record too); so are
 * people the user blocked (the unread total leaves them out the same way: messages.ts).
 * Served by conversations_recent_idx, then primary-key lookups per row.
 */
export async function listConversations(
  db: Db,
  userId: number,
  beforeMessageId: number | null,
  limit: number,
): Promise<KeysetPage<Conversation, number>> {
  const rows = await db
    .select({ ...messageColumns, user: userSummaryColumns(userId), unreadCount: conversations.unreadCount, muted: conversations.muted })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.peerId))
    .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        eq(conversations.userId, userId),
        or(eq(users.isActive, true), isNotNull(users.deletedAt)),
        sql`not ${hasBlocked(userId, sql`${conversations.peerId}`)}`,
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
      muted: row.muted,
    })),
    next: page.next,
  };
}

/** Mutes or unmutes the user's conversation with peerId; false when they have none. */
export async function setMuted(db: Db, userId: number, peerId: number, muted: boolean): Promise<boolean> {
  const updated = await db
    .update(conversations)
    .set({ muted })
    .where(and(eq(conversations.userId, userId), eq(conversations.peerId, peerId)))
    .returning({ peerId: conversations.peerId });
  return updated.length > 0;
}
