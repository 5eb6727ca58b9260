// What each change to a message does (reactions, edits, unsending, deleting for oneself, reading
// a conversation): refused, already so, or the statements and stream rows that carry it out,
// decided from what the change batch read under its locks (change-batch.ts runs them).
import { MAX_REACTIONS_PER_PERSON, type ChangeRefusal, type MessageChange, type Reaction } from '../../../lib/contract';
import {
  addReaction,
  editText,
  hideMessage,
  markRead,
  readConversationRows,
  removeReaction,
  removeUpload,
  setReactions,
  takeUnread,
  unsendMessage,
} from './change-batch-sql';
import type { ChangeFor } from './change-stream';
import { toMessageRow, toUploadRow } from './message-batch-sql';
import { toMessagePayload, type MessageWithUpload } from './message-payload';
import type { MessageRow } from '../schema';
import type { Row, Statement } from '../engine/script-transaction';

/** How long after sending its sender may edit a message, and unsend it (server/config.ts). */
export interface MessageWindows {
  editWindowMs: number;
  unsendWindowMs: number;
}

/** One change as asked for; `windowMs`: how long after sending its sender may still do it. */
export type ChangeRequest =
  | { kind: 'react'; actorId: number; messageId: number; emoji: string; add: boolean }
  | { kind: 'edit'; actorId: number; messageId: number; text: string; windowMs: number }
  | { kind: 'unsend'; actorId: number; messageId: number; windowMs: number }
  | { kind: 'hide'; actorId: number; messageId: number }
  /** `upTo`: the newest message read (null: all of them). */
  | { kind: 'read'; actorId: number; peerId: number; upTo: number | null };

/** Why a change was refused (the contract has each one's sentence). */
export type { ChangeRefusal };

export type AccountChange = MessageChange & { userId: number };

export type ChangeOutcome =
  | { refused: ChangeRefusal }
  | {
      /** One per account concerned, each at that account's seq; empty when it was already so. */
      changes: AccountChange[];
      /** Accounts whose unread total moved (and a reader's, always), with the total now (for message_count). */
      unreadTotals: Map<number, number>;
      /** A file no message carries any more: removed from storage once the transaction committed. */
      removedStorageKey?: string;
      /** For a read: the reader's unread count of that conversation after it. */
      conversationUnread?: number;
    };

/** An account as the batch locked it. */
export interface Account {
  lastSeq: number;
  active: boolean;
  deleted: boolean;
  readReceipts: boolean;
}

/** A message as its actor may see it, with what the rules need, read under the locks. */
export interface Found {
  message: MessageRow;
  hidden: boolean;
  blocked: boolean;
  peer: { id: number; active: boolean; deleted: boolean; readReceipts: boolean };
  reactionRows: ReactionRow[];
  storageKey: string | null;
  /** Another message carries its upload. */
  carried: boolean;
  /** The recipient's unread counter with the sender. */
  recipientUnread: number;
  /** For `hide`: the conversation's newest other message the actor sees. */
  preview: MessageWithUpload | null;
}

/** One person's reaction; `at` in ms (the column's precision). */
export interface ReactionRow {
  emoji: string;
  userId: number;
  at: number;
}

/** A conversation's unread messages to the reader (up to where they read): how many, the newest, its counter, a block either way. */
export interface Unread {
  count: number;
  upTo: number;
  counter: number;
  blocked: boolean;
}

export const toUnread = (row: Row): Unread => ({
  count: Number(row.unread),
  upTo: Number(row.up_to ?? 0),
  counter: Number(row.unread_count ?? 0),
  blocked: row.blocked === true,
});

/** What one change writes, and what it answers once committed. */
export interface Plan {
  writes: Statement[];
  events: ChangeFor[];
  /** The changed message's sender, for a change to its own state (its versions: one per side). */
  senderId?: number;
  /** Accounts whose unread total to answer with. */
  totals: number[];
  removedStorageKey?: string;
  /** For a read: the reader's unread count of that conversation after it. */
  conversationUnread?: number;
}

/** What a planned change answers: refused, already so, or the plan to carry out. */
export type Decision = { refused: ChangeRefusal } | Plan;

const UNCHANGED: Plan = { writes: [], events: [], totals: [] };

/** The kinds that change one message's own state, so a client compares them with its version. */
export const VERSIONED = new Set<MessageChange['kind']>(['reaction', 'edit', 'unsend']);

/** Still inside its window (ms after it was sent), by the database's clock. */
const withinWindow = (message: MessageRow, now: Date, windowMs: number) => now.getTime() - message.createdAt.getTime() <= windowMs;

/** Both sides' change to a message, each with the other as the conversation. */
function forBoth(message: MessageRow, change: { kind: 'reaction'; reactions: Reaction[] } | { kind: 'edit'; text: string; edited_at: string } | { kind: 'unsend' }): [ChangeFor, ChangeFor] {
  return [
    { userId: message.senderId, message_id: message.id, peer_id: message.recipientId, ...change },
    { userId: message.recipientId, message_id: message.id, peer_id: message.senderId, ...change },
  ];
}

export function decideMessageChange(request: Exclude<ChangeRequest, { kind: 'read' }>, context: Found | null, accounts: Map<number, Account>, now: Date): Decision {
  // Someone else's message reads exactly like a missing one, and so does one with a deactivated
  // account (deleted accounts stay: their conversations do) or one the caller deleted for themselves.
  if (!context || !(context.peer.active || context.peer.deleted)) return { refused: 'not_found' };
  if (context.hidden) return request.kind === 'hide' ? UNCHANGED : { refused: 'not_found' };
  const { message, peer } = context;
  const own = message.senderId === request.actorId;
  // For reactions and edits, the two must still be able to talk.
  const mayNotTalk = context.blocked || peer.deleted;
  switch (request.kind) {
    case 'react': {
      if (message.deletedAt) return { refused: 'deleted' };
      if (mayNotTalk) return { refused: 'not_allowed' };
      const { actorId, emoji, add } = request;
      const mine = context.reactionRows.filter((row) => row.userId === actorId);
      const has = mine.some((row) => row.emoji === emoji);
      if (add ? has : !has) return UNCHANGED;
      if (add && mine.length >= MAX_REACTIONS_PER_PERSON) return { refused: 'too_many' };
      const rows = add
        ? [...context.reactionRows, { emoji, userId: actorId, at: now.getTime() }]
        : context.reactionRows.filter((row) => !(row.userId === actorId && row.emoji === emoji));
      const reactions = summariseReactions(rows);
      return {
        writes: [add ? addReaction(message.id, actorId, emoji, now) : removeReaction(message.id, actorId, emoji), setReactions(message.id, reactions)],
        events: forBoth(message, { kind: 'reaction', reactions }),
        senderId: message.senderId,
        totals: [],
      };
    }
    case 'edit': {
      if (!own) return { refused: 'not_yours' };
      if (message.deletedAt) return { refused: 'deleted' };
      if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
      if (mayNotTalk) return { refused: 'not_allowed' };
      if (request.text.trim() === '' && message.attachmentId === null) return { refused: 'empty' };
      if (request.text === message.text) return UNCHANGED;
      return {
        writes: [editText(message.id, request.text, now)],
        events: forBoth(message, { kind: 'edit', text: request.text, edited_at: now.toISOString() }),
        senderId: message.senderId,
        totals: [],
      };
    }
    case 'unsend': {
      // Its text, attachment and reactions go and the row stays as "Message deleted". Still
      // unread, it stops counting: read from now on (no receipt), one less on the recipient's
      // counter. Its upload goes too when no other message carries it.
      if (!own) return { refused: 'not_yours' };
      if (message.deletedAt) return UNCHANGED;
      if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
      const unread = message.readAt === null;
      const removing = message.attachmentId !== null && !context.carried;
      const [forSender, forRecipient] = forBoth(message, { kind: 'unsend' });
      return {
        writes: [
          unsendMessage(message.id, now),
          ...(removing ? [removeUpload(message.attachmentId!)] : []),
          ...(unread ? [takeUnread(message.recipientId, message.senderId, 1)] : []),
        ],
        events: [forSender, { ...forRecipient, ...(unread ? { unread_count: Math.max(context.recipientUnread - 1, 0) } : {}) }],
        senderId: message.senderId,
        totals: unread ? [message.recipientId] : [],
        ...(removing && context.storageKey ? { removedStorageKey: context.storageKey } : {}),
      };
    }
    case 'hide': {
      // For the caller only, on all their devices. A received message still unread is read from
      // now on (no receipt): gone from the thread, it could never be read otherwise. The change
      // carries the conversation's newest message the caller still sees, for the list's preview.
      const unread = !own && message.readAt === null;
      const receipts = (accounts.get(request.actorId)?.readReceipts ?? false) && peer.readReceipts;
      return {
        writes: [
          hideMessage(request.actorId, message.id),
          ...(unread ? [markRead(message.id, now), takeUnread(request.actorId, peer.id, 1)] : []),
        ],
        events: [
          {
            userId: request.actorId,
            kind: 'hide',
            message_id: message.id,
            peer_id: peer.id,
            preview: context.preview ? toMessagePayload(context.preview, request.actorId, receipts) : null,
            ...(unread ? { unread_count: Math.max(context.recipientUnread - 1, 0) } : {}),
          },
        ],
        totals: unread ? [request.actorId] : [],
      };
    }
  }
}

/**
 * Marks the peer's unread messages to the reader read (those up to the message asked for, if one
 * was) and takes exactly that many off the conversation's counter (not "set to 0": a message sent
 * meanwhile stays counted). `read` goes to the reader's devices, and the receipt `seen` to the
 * peer's when both have read receipts on and neither has blocked the other (a block ends what
 * each learns of the other), in which case the messages' seen_at is set too. The reader's unread total is answered either way.
 * A peer whose account is deactivated (deleted ones stay: their conversations do) is not found.
 */
export function decideRead(request: Extract<ChangeRequest, { kind: 'read' }>, accounts: Map<number, Account>, unread: Unread | undefined, now: Date): Decision {
  const { actorId, peerId } = request;
  const reader = accounts.get(actorId);
  const sender = accounts.get(peerId);
  if (!sender || !(sender.active || sender.deleted)) return { refused: 'not_found' };
  const count = unread?.count ?? 0;
  if (!reader || !unread || count === 0) return { ...UNCHANGED, totals: [actorId], conversationUnread: unread?.counter ?? 0 };
  const receipts = reader.readReceipts && sender.readReceipts && !unread.blocked;
  const { upTo } = unread;
  const readAt = now.toISOString();
  return {
    writes: [readConversationRows(actorId, peerId, upTo, now, receipts), takeUnread(actorId, peerId, count)],
    events: [
      { userId: actorId, kind: 'read', message_id: upTo, peer_id: peerId, read_at: readAt, unread_count: Math.max(unread.counter - count, 0) },
      ...(receipts ? [{ userId: peerId, kind: 'seen' as const, message_id: upTo, peer_id: actorId, read_at: readAt }] : []),
    ],
    totals: [actorId],
    conversationUnread: Math.max(unread.counter - count, 0),
  };
}

/** A message's reactions, from its rows in any order: by emoji in the order first used, people in the order they reacted. */
export function summariseReactions(rows: readonly ReactionRow[]): Reaction[] {
  const sorted = [...rows].sort((a, b) => a.at - b.at || a.userId - b.userId || (a.emoji < b.emoji ? -1 : a.emoji > b.emoji ? 1 : 0));
  const byEmoji = new Map<string, number[]>();
  for (const { emoji, userId } of sorted) byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), userId]);
  return [...byEmoji].map(([emoji, userIds]) => ({ emoji, user_ids: userIds }));
}

export const toAccount = (row: Row): Account => ({
  lastSeq: Number(row.last_seq),
  active: row.is_active === true,
  deleted: row.deleted === true,
  readReceipts: row.read_receipts === true,
});

export function toFound(row: Row): Found {
  const message = toMessageRow(row);
  const preview = row.preview as { message: Row; upload: Row | null; reply: MessageWithUpload['reply'] } | null;
  return {
    message,
    hidden: row.hidden === true,
    blocked: row.blocked === true,
    peer: {
      id: message.senderId === Number(row.actor_id) ? message.recipientId : message.senderId,
      active: row.peer_active === true,
      deleted: row.peer_deleted === true,
      readReceipts: row.peer_receipts === true,
    },
    reactionRows: ((row.reaction_rows ?? []) as { emoji: string; user_id: number; at: string }[]).map((reaction) => ({
      emoji: reaction.emoji,
      userId: Number(reaction.user_id),
      at: Date.parse(reaction.at),
    })),
    storageKey: (row.storage_key as string | null) ?? null,
    carried: row.carried === true,
    recipientUnread: Number(row.recipient_unread ?? 0),
    preview: preview ? { message: toMessageRow(preview.message), upload: preview.upload ? toUploadRow(preview.upload) : null, reply: preview.reply ?? null } : null,
  };
}
