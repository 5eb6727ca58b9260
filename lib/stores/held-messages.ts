// Socket protocol 2's payloads as the stores hold them. The stores keep a direct conversation by
// the other person, and each message in the shape the thread and the list show (MessagePayload:
// who it is to, and when it was read), with its conversation's seq and version; so a message by
// conversation is placed with the other person and the conversation's read positions: the user's
// own (what they read of the peer's) and the peer's receipt (what the peer read of theirs).
import type { AccountItem, ConversationChange, ConversationMessage, ConversationSummary, MessagePayload, SeenPayload } from '@/lib/contract';
import type { HeldChange } from './message-changes';

/** How far each side of a direct conversation has read it. */
export interface ReadPositions {
  /** The user read the peer's messages up to this seq. */
  readSeq: number;
  /** The peer's receipt: they read the user's messages up to `seq` (null: none the user may see). */
  seen: { seq: number; read_at: string } | null;
}

/**
 * A message of the direct conversation with `peerId` as the stores hold it. Its read time is the
 * receipt's for the user's own (the time the peer read up to it or past it), and for the peer's a
 * time at all only to say it is read (nothing shows when the user read it).
 */
export function heldMessage(message: ConversationMessage, peerId: number, me: number, { readSeq, seen }: ReadPositions): MessagePayload {
  const own = message.sender_id !== peerId;
  const readAt = own ? (seen !== null && message.seq <= seen.seq ? seen.read_at : null) : message.seq <= readSeq ? message.created_at : null;
  return {
    id: message.id,
    client_id: message.client_id,
    sender_id: message.sender_id,
    recipient_id: own ? peerId : me,
    text: message.text,
    attachment: message.attachment,
    attachment_removed: message.attachment_removed,
    created_at: message.created_at,
    read_at: readAt,
    seq: message.seq,
    edited_at: message.edited_at,
    deleted: message.deleted,
    reactions: message.reactions,
    version: message.version,
    reply_to: message.reply_to,
  };
}

/** A change to a message of the direct conversation with `peerId`. */
export function heldChange(change: ConversationChange, peerId: number): HeldChange {
  const base = { peer_id: peerId, seq: change.seq, message_id: change.message_id };
  switch (change.kind) {
    case 'reaction':
      return { ...base, kind: 'reaction', reactions: change.reactions };
    case 'edit':
      return { ...base, kind: 'edit', text: change.text, edited_at: change.edited_at };
    case 'unsend':
      return { ...base, kind: 'unsend' };
  }
}

/**
 * The user's own read or deletion (an account item) in the conversation with `peerId`; a mute is
 * not a change to messages (null). A hide's preview is placed with the positions the list row knows.
 */
export function heldItem(item: AccountItem, peerId: number, me: number, positions: ReadPositions, now: string): HeldChange | null {
  switch (item.kind) {
    case 'read':
      return { kind: 'read', peer_id: peerId, seq: item.read_seq, read_at: now, unread_count: item.unread_count };
    case 'hide':
      return {
        kind: 'hide',
        peer_id: peerId,
        message_id: item.message_id,
        preview: item.preview === null ? null : heldMessage(item.preview, peerId, me, positions),
        ...(item.unread_count === undefined ? {} : { unread_count: item.unread_count }),
      };
    case 'muted':
      return null;
  }
}

/** The peer's read receipt. */
export const heldSeen = ({ user_id, seq, read_at }: SeenPayload): Extract<HeldChange, { kind: 'seen' }> => ({ kind: 'seen', peer_id: user_id, seq, read_at });

/** A list row's read positions (its receipt is not part of it: the thread's pages bring it). */
export const positionsOf = (summary: Pick<ConversationSummary, 'read_seq'>): ReadPositions => ({ readSeq: summary.read_seq, seen: null });
