// Reading a conversation: its unread messages to the reader, up to the one asked for, become read;
// the reader's devices hear `read`, and the sender's hear `seen` when read receipts allow it.
import { readConversationRows, takeUnread } from '../change-batch-sql';
import type { Row } from '../../engine/script-transaction';
import { UNCHANGED, type Account, type ChangeRequest, type Decision } from './plan';

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
