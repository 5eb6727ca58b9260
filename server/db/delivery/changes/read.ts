// Reading a conversation: its unread messages to the reader, up to the one asked for, become read;
// the reader's devices hear `read`, and the sender's hear `seen` when read receipts allow it.
import { moveReadPosition, type ReadPosition } from '../change-batch-sql';
import type { Row } from '../../engine/script-transaction';
import { UNCHANGED, type Account, type ChangeRequest, type Decision } from './plan';

/**
 * A conversation's unread messages to the reader, up to where they read, as their position says:
 * the direct conversation's other person (null in a group), how many, the reader's position after
 * reading them (read up to where the read reaches, the reader's own messages included; the newest
 * of the others' read), the reader's unread count of the conversation before it, a block either way.
 */
export interface Unread {
  peerId: number | null;
  count: number;
  position: ReadPosition | null;
  counter: number;
  blocked: boolean;
}

export const toUnread = (row: Row): Unread => ({
  peerId: row.peer_id == null ? null : Number(row.peer_id),
  count: Number(row.unread ?? 0),
  position: row.up_to_seq == null ? null : { readSeq: Number(row.target_seq), seenSeq: Number(row.up_to_seq) },
  counter: Number(row.unread_count ?? 0),
  blocked: row.blocked === true,
});

/**
 * Marks the reader's unread messages of the conversation read (those up to the message asked for,
 * if one was): the reader's position moves there (never back: a message sent meanwhile stays
 * unread). The read item goes to the reader's devices, and the receipt `seen` to the other
 * person's when both have read receipts on and neither has blocked the other (a block ends what
 * each learns of the other), in which case the reader's receipt position moves too. The reader's
 * unread total is answered either way. A conversation the reader is not a member of, or whose
 * other person's account is deactivated (deleted ones stay: their conversations do), is not found.
 */
export function decideRead(request: Extract<ChangeRequest, { kind: 'read' }>, accounts: Map<number, Account>, unread: Unread | undefined, now: Date): Decision {
  const { actorId, conversationId } = request;
  const reader = accounts.get(actorId);
  if (!unread) return { refused: 'not_found' };
  const peer = unread.peerId === null ? null : accounts.get(unread.peerId);
  if (unread.peerId !== null && !(peer && (peer.active || peer.deleted))) return { refused: 'not_found' };
  const { count, position } = unread;
  if (!reader || !position || count === 0) return { ...UNCHANGED, totals: [actorId], conversationUnread: unread.counter };
  const receipts = reader.readReceipts && peer !== null && peer !== undefined && peer.readReceipts && !unread.blocked;
  const left = Math.max(unread.counter - count, 0);
  return {
    writes: [moveReadPosition(conversationId, actorId, position, receipts, now)],
    // The reader's position and what is left unread, for their other devices.
    own: { userId: actorId, conversationId, kind: 'read', state: { read_seq: position.readSeq, unread_count: left } },
    ...(receipts && unread.peerId !== null
      ? { seen: { to: unread.peerId, payload: { conversation_id: conversationId, user_id: actorId, seq: position.seenSeq, read_at: now.toISOString() } } }
      : {}),
    totals: [actorId],
    conversationUnread: left,
  };
}
