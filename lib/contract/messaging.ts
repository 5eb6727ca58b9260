// Direct messages, conversations, attachments and their limits (issue #3).
// Schemas validate socket payloads on the server; the client uses the inferred types.
import { z } from 'zod';
import type { UserSummary } from './people';

/** Longest message text, in characters (UTF-16 code units, as String.length counts). */
export const MAX_MESSAGE_LENGTH = 4000;
/** Messages per thread page (GET /api/conversations/:userId/messages). */
export const THREAD_PAGE_SIZE = 50;
/** Conversations per page (GET /api/conversations). */
export const CONVERSATION_PAGE_SIZE = 30;

/** An uploaded file, as stored (POST /api/uploads) and as attached to a message. */
export interface Attachment {
  id: string;
  name: string;
  mime_type: string;
  size: number;
  /** Pixel size for images, so the UI can reserve the space before the image loads. */
  width: number | null;
  height: number | null;
  /** Where to fetch it: /api/uploads/:id/:name (unguessable id). */
  url: string;
}

/** A stored direct message as the server sends it. */
export interface MessagePayload {
  id: number;
  client_id: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  attachment: Attachment | null;
  created_at: string;
  read_at: string | null;
}

/** One row of GET /api/conversations: newest first by last message. */
export interface Conversation {
  user: UserSummary;
  last_message: MessagePayload;
  /** Unread messages from this person to the signed-in user. */
  unread_count: number;
}

const userId = z.number().int().positive().max(2_147_483_647);

/** Socket `send`. Text may be empty only when a file is attached. */
export const sendPayloadSchema = z
  .strictObject({
    client_id: z.uuid(),
    recipient_id: userId,
    text: z.string().max(MAX_MESSAGE_LENGTH),
    attachment_id: z.string().min(1).max(64).nullish(),
  })
  .refine((payload) => payload.text.trim() !== '' || payload.attachment_id, {
    message: 'A message needs text or an attachment.',
  });
export type SendPayload = z.infer<typeof sendPayloadSchema>;

/** Socket `follow`: follow (true) or unfollow (false) a user. */
export const followPayloadSchema = z.strictObject({ user_id: userId, follow: z.boolean() });
export type FollowPayload = z.infer<typeof followPayloadSchema>;

/** Socket `read`: the conversation with `user_id` has been seen; marks their messages read. */
export const readPayloadSchema = z.strictObject({ user_id: userId });
export type ReadPayload = z.infer<typeof readPayloadSchema>;

/** PATCH /api/accounts/settings */
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const settingsRequestSchema = z.strictObject({ language: z.enum(SUPPORTED_LANGUAGES) });
export type SettingsRequest = z.infer<typeof settingsRequestSchema>;
