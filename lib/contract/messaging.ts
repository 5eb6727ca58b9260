// Direct messages, conversations and attachments. Their limits are in constants.ts; payload
// schemas in schemas.ts (server-side validation), of which the client uses the inferred types.
import type { Page, UserSummary } from './people';

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
  /**
   * It had an attachment whose file was erased with its sender's account: shown as removed. Always
   * sent by the server; absent on a message the client composed that is not stored yet.
   */
  attachment_removed?: boolean;
  created_at: string;
  read_at: string | null;
  /**
   * The viewer's sequence number of this message: each account numbers the messages it sent or
   * received 1, 2, 3… in the order they were stored, with no gaps. The same message has one seq
   * for its sender and another for its recipient. A client that holds 1…n has missed nothing up
   * to n; `sync` fetches what comes after (docs/DELIVERY.md).
   */
  seq: number;
}

/** One row of GET /api/conversations: newest first by last message. */
export interface Conversation {
  user: UserSummary;
  last_message: MessagePayload;
  /** Unread messages from this person to the signed-in user. */
  unread_count: number;
  /** The signed-in user muted it: the badge stays, notifications never come (on any device). */
  muted: boolean;
}

/**
 * GET /api/conversations. `last_seq` is the account's latest message seq, read with the page:
 * everything up to it is reflected in the answer, so `sync` from it misses nothing.
 */
export interface ConversationPage extends Page<Conversation> {
  last_seq: number;
}

export type { FollowPayload, ReadPayload, SendPayload, SettingsRequest } from './schemas';
