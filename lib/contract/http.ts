// HTTP payloads shared by the client (lib/api) and the server (server/http).
// Request types are inferred from the zod schemas in schemas.ts, which only the server imports
// at run time: the browser gets the types without shipping zod.

import type { MessagePolicy, NotificationPreview } from './constants';
export type { AuthorizeRequest, ProfileRequest } from './schemas';

/** The user as the API returns it (the sign-in contract names only id, language and is_active). */
export interface User {
  id: number;
  username: string | null;
  email: string | null;
  avatar: string | null;
  language: string;
  is_active: boolean;
  /** Who may start a conversation with them: everyone, people they follow, or nobody. */
  message_policy: MessagePolicy;
  /** Others may see when the user is online and was last seen; off, the user sees no one's. */
  show_presence: boolean;
  /** What notifications show of a message (NOTIFICATION_PREVIEWS). */
  notification_preview: NotificationPreview;
  /** Whether notifications play a sound. */
  notification_sound: boolean;
  /** Others see when the user read their messages (and the user sees theirs); off, neither. */
  read_receipts: boolean;
}

export interface AuthorizeResponse {
  token: string;
  user: User;
}

/** GET {api}/accounts/info */
export type AccountInfo = User;

/** GET {api}/uploads/usage: bytes of the caller's uploads, and their quota (null: none). */
export interface UploadUsage {
  used_bytes: number;
  quota_bytes: number | null;
}

/** Error bodies: payload problems carry non_field_errors, everything else msg. */
interface FieldErrorsBody {
  non_field_errors: string[];
}
interface MessageErrorBody {
  msg: string;
}
export type ErrorBody = FieldErrorsBody | MessageErrorBody;
