import { eq, getTableColumns, sql } from 'drizzle-orm';
import { REPLY_SNIPPET_LENGTH, type ConversationMessage, type ReplySummary } from '../../../lib/contract';
import { MESSAGE_UNREAD_COLUMNS, messages, uploads, type MessageRow, type UploadRow } from '../schema';
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
  /** The stored message as every member sees it, by its conversation's seq. */
  message: ConversationMessage;
  /** Whom it was sent to: the direct conversation's other member. */
  recipientId: number;
  /** False when the sender's client_id was already stored: `message` is that first row, unchanged. */
  created: boolean;
}

/** Every column the server reads (MESSAGE_UNREAD_COLUMNS left out). */
function readColumns() {
  const columns: Partial<ReturnType<typeof getTableColumns<typeof messages>>> = { ...getTableColumns(messages) };
  for (const column of MESSAGE_UNREAD_COLUMNS) delete columns[column];
  return columns as Omit<ReturnType<typeof getTableColumns<typeof messages>>, (typeof MESSAGE_UNREAD_COLUMNS)[number]>;
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
const messageColumns = {
  message: messageFields,
  upload: uploads,
  reply: sql<ReplySummary | null>`${sql.raw(replySummarySql('"messages"."reply_to_id"'))}`,
};

/** The join that fills a message's attachment; pair it with messageColumns. */
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

/** A message the send path stored or found, as every member sees it, and whom it was sent to. */
export function toStoredMessage(row: MessageWithPlace, recipientId: number, created: boolean): StoredMessage {
  return { message: toConversationMessage(row), recipientId, created };
}
