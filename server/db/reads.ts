import { and, eq, isNull, sql } from 'drizzle-orm';
import type { MessageChange } from '../../lib/contract';
import { appendChanges, lockAccounts } from './change-stream';
import { countUnread } from './messages';
import type { Db } from './open-database';
import { conversations, messages } from './schema';

export interface ReadOutcome {
  /** The reader's unread total afterwards. */
  count: number;
  /** The reader's `read` change, and the peer's `seen` when both have receipts on; none when nothing was unread. */
  changes: (MessageChange & { userId: number })[];
}

/**
 * Marks peerId's unread messages to userId read and takes exactly that many off the conversation's
 * counter (not "set to 0": a message sent meanwhile stays counted). The change goes into the
 * stream: `read` to the reader's devices, and the read receipt `seen` to the peer's when both have
 * read receipts on, in which case the messages' seen_at is set too (docs/DELIVERY.md, "Changes to
 * messages"). Both accounts are locked first, in id order, like every change and message batch.
 */
export async function readConversation(db: Db, userId: number, peerId: number): Promise<ReadOutcome> {
  return db.transaction(async (tx) => {
    const locked = await lockAccounts(tx, [userId, peerId]);
    const reader = locked.get(userId);
    const sender = locked.get(peerId);
    const receipts = (reader?.readReceipts ?? false) && (sender?.readReceipts ?? false);
    const marked = await tx
      .update(messages)
      .set({ readAt: sql`now()`, ...(receipts ? { seenAt: sql`now()` } : {}) })
      .where(and(eq(messages.recipientId, userId), eq(messages.senderId, peerId), isNull(messages.readAt)))
      .returning({ id: messages.id, readAt: messages.readAt });
    if (marked.length === 0 || !reader || !sender) return { count: await countUnread(tx, userId), changes: [] };
    const [row] = await tx
      .update(conversations)
      .set({ unreadCount: sql`${conversations.unreadCount} - ${marked.length}` })
      .where(and(eq(conversations.userId, userId), eq(conversations.peerId, peerId)))
      .returning({ unread: conversations.unreadCount });
    const upTo = Math.max(...marked.map((message) => message.id));
    const readAt = marked[0]!.readAt!.toISOString();
    const changes = await appendChanges(tx, locked, { id: upTo, senderId: peerId }, [
      { userId, kind: 'read', message_id: upTo, peer_id: peerId, read_at: readAt, unread_count: row?.unread ?? 0 },
      ...(receipts ? [{ userId: peerId, kind: 'seen' as const, message_id: upTo, peer_id: userId, read_at: readAt }] : []),
    ]);
    return { count: await countUnread(tx, userId), changes };
  });
}
