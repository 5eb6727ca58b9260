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

/** A message as `viewerId` (its sender or its recipient) sees it: `seq` is the viewer's. */
export function toMessagePayload({ message, upload }: MessageWithUpload, viewerId: number): MessagePayload {
  return {
    id: message.id,
    client_id: message.clientId,
    sender_id: message.senderId,
    recipient_id: message.recipientId,
    text: message.text,
    attachment: upload ? toAttachment(upload) : null,
    attachment_removed: message.attachmentRemoved,
    created_at: message.createdAt.toISOString(),
    read_at: message.readAt?.toISOString() ?? null,
    seq: message.senderId === viewerId ? message.senderSeq : message.recipientSeq,
  };
}

export function toStoredMessage(row: MessageWithUpload, created: boolean): StoredMessage {
  return {
    message: toMessagePayload(row, row.message.senderId),
    forRecipient: toMessagePayload(row, row.message.recipientId),
    created,
  };
}
