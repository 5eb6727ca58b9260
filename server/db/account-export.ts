import { and, asc, desc, eq, gt, isNotNull, lte, sql } from 'drizzle-orm';
import type { AccountExport, ConversationMessage } from '../../lib/contract';
import { toUser } from './user-dto';
import { STREAM_READ_ITEMS } from './delivery/conversation-stream';
import { attachmentOf, conversationMessageColumns, toConversationMessage } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { unreadFromOrdinalsSql } from './unread';
import { accountConversations, blocks, conversationMembers, conversationsV2, follows, messages, pushSubscriptions, reports, sessions, uploads, users } from './schema';
import { toAttachment } from './uploads';

/**
 * Messages read per query while exporting: the export never holds more than this many at once,
 * and no read of it holds the database long. A fifth of a catch-up read's (delivery/conversation-stream.ts):
 * reads of 50 took 18 ms (median, three statements) on the flood bench's data, and the others'
 * sends waited behind them; reads of 20 take 10.
 */
export const EXPORT_READ_MESSAGES = STREAM_READ_ITEMS / 5;
/** After each read of the messages but the last, a pause this many times as long as the read took. */
const EXPORT_REST = 3;
/** How long an export rests after a read of its messages that took `readMs`. */
export const restAfterRead = (readMs: number): number => EXPORT_REST * readMs;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));


type Section = Exclude<keyof AccountExport, 'messages'>;

/**
 * Everything the server holds about the user (AccountExport), as JSON text in pieces: the small
 * sections one query each, then the messages, the part that grows without bound, conversation by
 * conversation (in the order they began), each a page at a time in its seq order, within what the
 * user may read of it, those they deleted for themselves included. The caller streams the pieces
 * out, so memory stays flat whatever the history. Null for an unknown user. `rest` waits out the
 * pause between reads (restAfterRead).
 */
export async function* exportAccount(db: Db, userId: number, rest: (ms: number) => Promise<void> = sleep): AsyncGenerator<string> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return;
  const person = { user_id: users.id, username: users.username };
  const sections: { [K in Section]: () => Promise<AccountExport[K]> } = {
    exported_at: async () => new Date().toISOString(),
    user: async () => ({ ...toUser(user), created_at: user.createdAt.toISOString() }),
    sessions: async () =>
      (await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.id))).map((row) => ({
        id: row.id,
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt.toISOString(),
        revoked_at: row.revokedAt?.toISOString() ?? null,
      })),
    push_subscriptions: async () =>
      (await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(asc(pushSubscriptions.createdAt))).map((row) => ({
        endpoint: row.endpoint,
        session_id: row.sessionId,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      })),
    following: async () =>
      (
        await db.select({ ...person, since: follows.createdAt }).from(follows).innerJoin(users, eq(users.id, follows.followeeId))
          .where(eq(follows.followerId, userId)).orderBy(desc(follows.createdAt))
      ).map(({ since, ...row }) => ({ ...row, since: since.toISOString() })),
    followers: async () =>
      (
        await db.select({ ...person, since: follows.createdAt }).from(follows).innerJoin(users, eq(users.id, follows.followerId))
          .where(eq(follows.followeeId, userId)).orderBy(desc(follows.createdAt))
      ).map(({ since, ...row }) => ({ ...row, since: since.toISOString() })),
    blocks: async () =>
      (
        await db.select({ ...person, since: blocks.createdAt }).from(blocks).innerJoin(users, eq(users.id, blocks.blockedId))
          .where(eq(blocks.blockerId, userId)).orderBy(desc(blocks.createdAt))
      ).map(({ since, ...row }) => ({ ...row, since: since.toISOString() })),
    conversations: async () =>
      (
        await db
          .select({
            conversation_id: sql<number>`${accountConversations.conversationId}::int`,
            ...person,
            unread_count: sql<number>`${sql.raw(unreadFromOrdinalsSql('"conversation_members"', '"conversations_v2"'))}`,
            muted: conversationMembers.muted,
            lastMessageAt: conversationsV2.lastMessageAt,
          })
          .from(accountConversations)
          .innerJoin(users, eq(users.id, accountConversations.peerId))
          .innerJoin(conversationsV2, eq(conversationsV2.id, accountConversations.conversationId))
          .innerJoin(
            conversationMembers,
            and(eq(conversationMembers.conversationId, accountConversations.conversationId), eq(conversationMembers.userId, userId)),
          )
          .where(and(eq(accountConversations.userId, userId), isNotNull(conversationsV2.lastMessageAt)))
          .orderBy(desc(conversationsV2.lastMessageId))
      ).map(({ lastMessageAt, ...row }) => ({ ...row, last_message_at: lastMessageAt!.toISOString() })),
    uploads: async () =>
      (await db.select().from(uploads).where(eq(uploads.ownerId, userId)).orderBy(asc(uploads.createdAt))).map((row) => ({
        ...toAttachment(row),
        created_at: row.createdAt.toISOString(),
      })),
    reports: async () =>
      (await db.select().from(reports).where(eq(reports.reporterId, userId)).orderBy(asc(reports.id))).map((row) => ({
        id: row.id,
        reported_user_id: row.reportedUserId,
        message_id: row.messageId,
        message_text: row.messageText,
        reason: row.reason as AccountExport['reports'][number]['reason'],
        details: row.details,
        created_at: row.createdAt.toISOString(),
        resolved_at: row.resolvedAt?.toISOString() ?? null,
      })),
  };

  let first = true;
  for (const [key, read] of Object.entries(sections)) {
    yield `${first ? '{' : ','}\n${JSON.stringify(key)}: ${JSON.stringify(await read())}`;
    first = false;
  }
  yield ',\n"messages": [';
  // The user's conversations by their list rows' key, each member row and head by theirs.
  const windows = await db
    .select({ conversationId: accountConversations.conversationId, joinedSeq: conversationMembers.joinedSeq, end: sql<number>`coalesce(${conversationMembers.leftSeq}, ${conversationsV2.lastSeq})` })
    .from(accountConversations)
    .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, accountConversations.conversationId), eq(conversationMembers.userId, userId)))
    .innerJoin(conversationsV2, eq(conversationsV2.id, accountConversations.conversationId))
    .where(eq(accountConversations.userId, userId))
    .orderBy(asc(accountConversations.conversationId));
  let count = 0;
  let read = false;
  let took = 0;
  for (const window of windows) {
    let after = Number(window.joinedSeq);
    // Nothing of it to read: neither a read nor a rest.
    if (Number(window.end) <= after) continue;
    for (;;) {
      // Three times as long again before each read but the first, so one export never has more
      // than a quarter of the database's time however long the history: 10,000 messages read back
      // to back held PGlite most of the time, and everyone's sends queued behind them; at half its
      // time they still waited behind its reads often enough to double their p99
      // (docs/DECISIONS.md, "One account's flood costs that account"). It takes four times as long
      // instead (10,000 messages: a few seconds), and the person asking for it waits for a file,
      // not a message.
      if (read) await rest(restAfterRead(took));
      const started = performance.now();
      const page = await messagesOf(db, Number(window.conversationId), after, Number(window.end), EXPORT_READ_MESSAGES);
      took = performance.now() - started;
      read = true;
      if (page.messages.length > 0) {
        yield page.messages.map((message) => `${count++ === 0 ? '\n' : ',\n'}${JSON.stringify(message)}`).join('');
        after = page.messages[page.messages.length - 1]!.seq;
      }
      if (!page.hasMore) break;
    }
  }
  yield '\n]}\n';
}

/** A conversation's messages in (after, end], at most `limit`, in seq order: one range scan of messages_conversation_seq_idx. */
async function messagesOf(db: Db, conversationId: number, after: number, end: number, limit: number): Promise<{ messages: ConversationMessage[]; hasMore: boolean }> {
  const found = await db
    .select(conversationMessageColumns)
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, after), lte(messages.seq, end)))
    .orderBy(asc(messages.seq))
    .limit(limit + 1);
  return { messages: found.slice(0, limit).map(toConversationMessage), hasMore: found.length > limit };
}
