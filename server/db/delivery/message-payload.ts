import { eq, getTableColumns, sql } from 'drizzle-orm';
import { REPLY_SNIPPET_LENGTH, type ConversationMessage, type MessagePayload, type ReplySummary } from '../../../lib/contract';
import { messages, uploads, type MessageRow, type UploadRow } from '../schema';
import { toAttachment } from '../uploads';

export interface NewMessage {
  senderId: number;
  recipientId: number;
  clientId: string;
  text: string;
  attachmentId?: string | null;
  /** The message it answers; checked in the batch (same conversation, not hidden by the sender). */
  replyToId?: number | null;
}

export interface StoredMessage {
  /** The stored message as its sender sees it. */
  message: MessagePayload;
  /** The same message as its recipient sees it (their seq). */
  forRecipient: MessagePayload;
  /** The same message as every member sees it, by its conversation's seq (socket protocol 2). */
  conversation: ConversationMessage;
  /** False when the sender's client_id was already stored: `message` is that first row, unchanged. */
  created: boolean;
}

/** Every column but search_vector: the index's business, never read back. */
function readColumns() {
  const columns: Partial<ReturnType<typeof getTableColumns<typeof messages>>> = { ...getTableColumns(messages) };
  delete columns.searchVector;
  return columns as Omit<ReturnType<typeof getTableColumns<typeof messages>>, 'searchVector'>;
}
const messageFields = readColumns();

/**
 * The summary a reply carries of the message it answers, read as it is now (an edit or an unsend
 * shows), as one JSON value: a correlated lookup by primary key, so every query that selects
 * messageColumns carries it without another join. `replyToColumn` is the answering row's
 * reply_to_id as SQL text (the raw batch statements use it too).
 */
export const replySummarySql = (replyToColumn: string) => `(
  select json_build_object('id', r.id, 'sender_id', r.sender_id, 'text', left(r.text, ${REPLY_SNIPPET_LENGTH}),
    'deleted', r.deleted_at is not null,
    'attachment', case when ru.id is null then null else json_build_object('name', ru.name, 'mime_type', ru.mime_type) end)
  from messages r left join uploads ru on ru.id = r.attachment_id where r.id = ${replyToColumn})`;

/** Selects a message with its attachment and reply summary: `.from(messages)` plus attachmentOf's join. */
export const messageColumns = {
  message: messageFields,
  upload: uploads,
  reply: sql<ReplySummary | null>`${sql.raw(replySummarySql('"messages"."reply_to_id"'))}`,
};

/** The join that fills MessagePayload.attachment; pair it with messageColumns. */
export const attachmentOf = eq(uploads.id, messages.attachmentId);

export type MessageWithUpload = { message: MessageRow; upload: UploadRow | null; reply: ReplySummary | null };

/** A message's place in its conversation's stream: its conversation, seq, and the seq of its latest change. */
interface MessagePlace {
  conversationId: number;
  seq: number;
  version: number;
}

export type MessageWithPlace = MessageWithUpload & { place: MessagePlace };

/** Selects a message as toConversationMessage reads it: messageColumns and its place in its conversation (with attachmentOf's join). */
export const conversationMessageColumns = {
  ...messageColumns,
  place: { conversationId: messages.conversationId, seq: messages.seq, version: messages.version },
};

/** A message row as every member sees it. */
export function toConversationMessage({ message, upload, reply, place }: MessageWithPlace): ConversationMessage {
  return {
    id: message.id,
    conversation_id: Number(place.conversationId),
    seq: Number(place.seq),
    version: Number(place.version),
    client_id: message.clientId,
    sender_id: message.senderId,
    text: message.text,
    attachment: upload ? toAttachment(upload) : null,
    attachment_removed: message.attachmentRemoved,
    created_at: message.createdAt.toISOString(),
    edited_at: message.editedAt?.toISOString() ?? null,
    deleted: message.deletedAt !== null,
    reactions: message.reactions,
    reply_to: toReplySummary(reply),
  };
}

/** JSON numbers arrive as numbers from both drivers; bigint ids are kept exact below 2^53. */
function toReplySummary(reply: ReplySummary | null): ReplySummary | null {
  if (!reply) return null;
  return { ...reply, id: Number(reply.id), sender_id: Number(reply.sender_id) };
}

/**
 * A message as `viewerId` (its sender or its recipient) sees it: `seq` and `version` are the
 * viewer's. `receipts`: the sender and the recipient both have read receipts on now, so the
 * sender may see the receipt (seen_at) as read_at; the recipient always sees their own read_at.
 */
export function toMessagePayload({ message, upload, reply }: MessageWithUpload, viewerId: number, receipts: boolean): MessagePayload {
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
    reply_to: toReplySummary(reply),
  };
}

/**
 * Both sides' copies of a message the send path stored or found. Receipts are left out: a new
 * message is unread, and a retry of an old one gets its row as it was stored.
 */
export function toStoredMessage(row: MessageWithPlace, created: boolean): StoredMessage {
  return {
    message: toMessagePayload(row, row.message.senderId, false),
    forRecipient: toMessagePayload(row, row.message.recipientId, false),
    conversation: toConversationMessage(row),
    created,
  };
}
