import { eq } from 'drizzle-orm';
import type { MessagePayload } from '../../lib/contract';
import { messages, uploads, type MessageRow, type UploadRow } from './schema';
import { toAttachment } from './uploads';

export interface NewMessage {
  senderId: number;
  recipientId: number;
  clientId: string;
  text: string;
  attachmentId?: string | null;
}

export interface StoredMessage {
  /** The stored message as its sender sees it. */
  message: MessagePayload;
  /** The same message as its recipient sees it (their seq). */
  forRecipient: MessagePayload;
  /** False when the sender's client_id was already stored: `message` is that first row, unchanged. */
  created: boolean;
}

/** Selects a message with its attachment: `.from(messages)` plus attachmentOf's join. */
export const messageColumns = { message: messages, upload: uploads };

/** The join that fills MessagePayload.attachment; pair it with messageColumns. */
export const attachmentOf = eq(uploads.id, messages.attachmentId);

export type MessageWithUpload = { message: MessageRow; upload: UploadRow | null };

/**
 * A message as `viewerId` (its sender or its recipient) sees it: `seq` and `version` are the
 * viewer's. `receipts`: the sender and the recipient both have read receipts on now, so the
 * sender may see the receipt (seen_at) as read_at; the recipient always sees their own read_at.
 */
export function toMessagePayload({ message, upload }: MessageWithUpload, viewerId: number, receipts: boolean): MessagePayload {
  const sent = message.senderId === viewerId;
  const seq = sent ? message.senderSeq : message.recipientSeq;
  const readAt = sent ? (receipts ? message.seenAt : null) : message.readAt;
  return {
    id: message.id,
    client_id: message.clientId,
    sender_id: message.senderId,
    recipient_id: message.recipientId,
    text: message.text,
    attachment: upload ? toAttachment(upload) : null,
    attachment_removed: message.attachmentRemoved,
    created_at: message.createdAt.toISOString(),
    read_at: readAt?.toISOString() ?? null,
    seq,
    edited_at: message.editedAt?.toISOString() ?? null,
    deleted: message.deletedAt !== null,
    reactions: message.reactions,
    version: (sent ? message.senderVersion : message.recipientVersion) ?? seq,
  };
}

/**
 * Both sides' copies of a message the send path stored or found. Receipts are left out: a new
 * message is unread, and a retry of an old one gets its row as it was stored.
 */
export function toStoredMessage(row: MessageWithUpload, created: boolean): StoredMessage {
  return {
    message: toMessagePayload(row, row.message.senderId, false),
    forRecipient: toMessagePayload(row, row.message.recipientId, false),
    created,
  };
}
