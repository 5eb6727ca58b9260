// The changes a person makes to a message: reactions, edits, unsending for everyone, deleting for
// themselves. Each is one transaction (message-change.ts) that writes the resulting state into
// the stream of every account it concerns (change-stream.ts; docs/DELIVERY.md, "Changes to messages").
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { MAX_REACTIONS_PER_PERSON, type Reaction } from '../../lib/contract';
import { appendChanges } from './change-stream';
import { changeMessage, unchanged, withinWindow, type ChangeContext, type ChangeOutcome } from './message-change';
import { attachmentOf, messageColumns, toMessagePayload } from './message-payload';
import { countUnread, notHiddenFor } from './messages';
import type { Db } from './open-database';
import { conversations, messageHidden, messageReactions, messages, uploads } from './schema';

export type { ChangeOutcome, ChangeRefusal } from './message-change';

/** How long after sending its sender may edit a message, and unsend it (server/config.ts). */
export interface MessageWindows {
  editWindowMs: number;
  unsendWindowMs: number;
}

/** A message of the conversation, by the two people in it: for reactions and edits, they must still be able to talk. */
const mayNotTalk = ({ blocked, peer }: ChangeContext) => blocked || peer.deleted;

/** The message's reactions from message_reactions: by emoji in the order first used, people in the order they reacted. */
async function reactionSummary(tx: Db, messageId: number): Promise<Reaction[]> {
  const found = await tx
    .select({ emoji: messageReactions.emoji, userId: messageReactions.userId })
    .from(messageReactions)
    .where(eq(messageReactions.messageId, messageId))
    .orderBy(asc(messageReactions.createdAt), asc(messageReactions.userId), asc(messageReactions.emoji));
  const byEmoji = new Map<string, number[]>();
  for (const { emoji, userId } of found) byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), userId]);
  return [...byEmoji].map(([emoji, userIds]) => ({ emoji, user_ids: userIds }));
}

/** Both sides' change, each with the other as the conversation. */
function forBoth<T extends object>({ message }: ChangeContext, change: T) {
  return [
    { userId: message.senderId, message_id: message.id, peer_id: message.recipientId, ...change },
    { userId: message.recipientId, message_id: message.id, peer_id: message.senderId, ...change },
  ];
}

/** Adds (or removes) the caller's reaction with `emoji`; nothing changes when it already is (or is not) there. */
export function react(db: Db, actorId: number, messageId: number, emoji: string, add: boolean): Promise<ChangeOutcome> {
  return changeMessage(db, actorId, messageId, { lockPeer: true }, async (context) => {
    const { tx, message } = context;
    if (message.deletedAt) return { refused: 'deleted' };
    if (mayNotTalk(context)) return { refused: 'not_allowed' };
    const mine = and(eq(messageReactions.messageId, message.id), eq(messageReactions.userId, actorId));
    if (add) {
      const [own] = await tx.select({ count: count(), has: sql<boolean>`bool_or(${messageReactions.emoji} = ${emoji})` }).from(messageReactions).where(mine);
      if (own?.has) return unchanged();
      if ((own?.count ?? 0) >= MAX_REACTIONS_PER_PERSON) return { refused: 'too_many' };
      await tx.insert(messageReactions).values({ messageId: message.id, userId: actorId, emoji });
    } else {
      const removed = await tx.delete(messageReactions).where(and(mine, eq(messageReactions.emoji, emoji))).returning({ emoji: messageReactions.emoji });
      if (removed.length === 0) return unchanged();
    }
    const reactions = await reactionSummary(tx, message.id);
    await tx.update(messages).set({ reactions }).where(eq(messages.id, message.id));
    const changes = await appendChanges(tx, context.locked, message, forBoth(context, { kind: 'reaction' as const, reactions }));
    return { changes, unreadTotals: new Map() };
  });
}

/** New text for the caller's own message, within the edit window; the same text changes nothing. */
export function edit(db: Db, actorId: number, messageId: number, text: string, windows: MessageWindows): Promise<ChangeOutcome> {
  return changeMessage(db, actorId, messageId, { lockPeer: true }, async (context) => {
    const { tx, message, now } = context;
    if (!context.own) return { refused: 'not_yours' };
    if (message.deletedAt) return { refused: 'deleted' };
    if (!withinWindow(context, windows.editWindowMs)) return { refused: 'too_late' };
    if (mayNotTalk(context)) return { refused: 'not_allowed' };
    if (text.trim() === '' && message.attachmentId === null) return { refused: 'empty' };
    if (text === message.text) return unchanged();
    await tx.update(messages).set({ text, editedAt: now }).where(eq(messages.id, message.id));
    const change = { kind: 'edit' as const, text, edited_at: now.toISOString() };
    return { changes: await appendChanges(tx, context.locked, message, forBoth(context, change)), unreadTotals: new Map() };
  });
}

/**
 * Unsends the caller's own message for everyone, within the unsend window: its text, attachment
 * and reactions go and the row stays as "Message deleted". Still unread, it stops counting: read
 * from now on (no receipt), one less on the recipient's conversation counter. Its upload goes too
 * when no other message carries it (the caller removes the file after the commit).
 */
export function unsend(db: Db, actorId: number, messageId: number, windows: MessageWindows): Promise<ChangeOutcome> {
  return changeMessage(db, actorId, messageId, { lockPeer: true }, async (context) => {
    const { tx, message, now } = context;
    if (!context.own) return { refused: 'not_yours' };
    if (message.deletedAt) return unchanged();
    if (!withinWindow(context, windows.unsendWindowMs)) return { refused: 'too_late' };
    const unread = message.readAt === null;
    await tx
      .update(messages)
      .set({ text: '', attachmentId: null, deletedAt: now, reactions: [], ...(unread ? { readAt: now } : {}) })
      .where(eq(messages.id, message.id));
    await tx.delete(messageReactions).where(eq(messageReactions.messageId, message.id));
    let removedStorageKey: string | undefined;
    if (message.attachmentId !== null) {
      const [carried] = await tx.select({ id: messages.id }).from(messages).where(eq(messages.attachmentId, message.attachmentId)).limit(1);
      if (!carried) {
        const [removed] = await tx.delete(uploads).where(eq(uploads.id, message.attachmentId)).returning({ key: uploads.storageKey });
        removedStorageKey = removed?.key;
      }
    }
    const unreadCount = unread ? await takeOneUnread(tx, message.recipientId, message.senderId) : undefined;
    const [forSender, forRecipient] = forBoth(context, { kind: 'unsend' as const });
    const changes = await appendChanges(tx, context.locked, message, [
      forSender!,
      { ...forRecipient!, ...(unreadCount === undefined ? {} : { unread_count: unreadCount }) },
    ]);
    const unreadTotals = new Map(unread ? [[message.recipientId, await countUnread(tx, message.recipientId)]] : []);
    return { changes, unreadTotals, removedStorageKey };
  });
}

/**
 * Deletes a message of the caller's conversations for the caller only, on all their devices; the
 * other side keeps it. A received message still unread is read from now on (no receipt): once
 * gone from the thread it could never be read otherwise. The change carries the conversation's
 * newest message the caller still sees, for the list's preview.
 */
export function hide(db: Db, actorId: number, messageId: number): Promise<ChangeOutcome> {
  return changeMessage(db, actorId, messageId, { lockPeer: false, hiding: true }, async (context) => {
    const { tx, message, peerId, now } = context;
    const inserted = await tx.insert(messageHidden).values({ userId: actorId, messageId: message.id }).onConflictDoNothing().returning();
    if (inserted.length === 0) return unchanged();
    const unread = !context.own && message.readAt === null;
    if (unread) await tx.update(messages).set({ readAt: now }).where(eq(messages.id, message.id));
    const unreadCount = unread ? await takeOneUnread(tx, actorId, peerId) : undefined;
    const [newest] = await tx
      .select(messageColumns)
      .from(messages)
      .leftJoin(uploads, attachmentOf)
      .where(
        and(
          sql`least(${messages.senderId}, ${messages.recipientId}) = ${Math.min(actorId, peerId)}`,
          sql`greatest(${messages.senderId}, ${messages.recipientId}) = ${Math.max(actorId, peerId)}`,
          notHiddenFor(actorId),
        ),
      )
      .orderBy(desc(messages.id))
      .limit(1);
    const receipts = (context.locked.get(actorId)?.readReceipts ?? false) && context.peer.readReceipts;
    const change = {
      userId: actorId,
      kind: 'hide' as const,
      message_id: message.id,
      peer_id: peerId,
      preview: newest ? toMessagePayload(newest, actorId, receipts) : null,
      ...(unreadCount === undefined ? {} : { unread_count: unreadCount }),
    };
    const changes = await appendChanges(tx, context.locked, message, [change]);
    const unreadTotals = new Map(unread ? [[actorId, await countUnread(tx, actorId)]] : []);
    return { changes, unreadTotals };
  });
}

/** One unread message of `peerId`'s to `userId` stopped being unread: the counter follows; returns its new value. */
async function takeOneUnread(tx: Db, userId: number, peerId: number): Promise<number> {
  const [row] = await tx
    .update(conversations)
    .set({ unreadCount: sql`greatest(${conversations.unreadCount} - 1, 0)` })
    .where(and(eq(conversations.userId, userId), eq(conversations.peerId, peerId)))
    .returning({ unread: conversations.unreadCount });
  return row?.unread ?? 0;
}
