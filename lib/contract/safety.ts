// Blocking, who-can-message-me, muting, reports, and the account's own data (export, deletion).
// Request schemas are in schemas.ts (server-side validation); the client uses the inferred types.
import type { MessagePolicy, ReportReason } from './constants';
import type { User } from './http';
import type { Attachment, ConversationMessage } from './messaging';

export type { ReportRequest } from './schemas';

/**
 * What a refused send or change says, for a block either way and for "who can message me" alike:
 * the sender learns no more than that (not whether they were blocked, nor the setting).
 */
export const CANNOT_MESSAGE = "You can't message this person.";

/** POST /api/reports → 201 */
export interface ReportCreated {
  id: number;
  created_at: string;
}

/** One row of GET /api/blocks: someone the signed-in user blocked, newest first. */
export interface BlockedUser {
  id: number;
  username: string | null;
  avatar: string | null;
  blocked_at: string;
}

/** PUT/DELETE /api/users/:id/block → 200 */
export interface BlockResult {
  user_id: number;
  blocked: boolean;
}

/** PATCH /api/conversations/:userId → 200 */
export interface MuteResult {
  user_id: number;
  muted: boolean;
}

/** PATCH /api/c/:conversationId (protocol 2's clients: by conversation). */
export interface ConversationMuteResult {
  conversation_id: number;
  muted: boolean;
}

/**
 * `safety_changed`, to every socket of the signed-in user when one of their devices changed a
 * block, a mute, who may message them, or what others see of them (online status, read
 * receipts): the other devices apply it without a reload.
 */
export type SafetyChange =
  | { type: 'block'; user_id: number; blocked: boolean }
  | { type: 'mute'; user_id: number; muted: boolean }
  | { type: 'message_policy'; message_policy: MessagePolicy }
  | { type: 'privacy'; show_presence: boolean; read_receipts: boolean };

/** GET /api/accounts/export: everything the server holds about the signed-in user. */
export interface AccountExport {
  exported_at: string;
  user: User & { created_at: string };
  sessions: { id: number; created_at: string; last_used_at: string; revoked_at: string | null }[];
  /** The browsers registered for Web Push (their encryption keys stay out: they are the browser's). */
  push_subscriptions: { endpoint: string; session_id: number; created_at: string; updated_at: string }[];
  following: ExportedPerson[];
  followers: ExportedPerson[];
  blocks: ExportedPerson[];
  /** Each conversation with its other person (`user_id`, `username`). */
  conversations: { conversation_id: number; user_id: number; username: string | null; unread_count: number; muted: boolean; last_message_at: string }[];
  /**
   * Every message of the user's conversations they may read, those they deleted for themselves
   * included, conversation by conversation, each in its order (`conversation_id`, `seq`),
   * attachments as metadata (not the files).
   */
  messages: ConversationMessage[];
  uploads: (Attachment & { created_at: string })[];
  reports: { id: number; reported_user_id: number; message_id: number | null; message_text: string | null; reason: ReportReason; details: string | null; created_at: string; resolved_at: string | null }[];
}

interface ExportedPerson {
  user_id: number;
  username: string | null;
  since: string;
}
