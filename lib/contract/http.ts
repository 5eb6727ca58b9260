// HTTP payloads shared by the client (lib/api) and the server (server/http).
// Request types are inferred from the zod schemas in schemas.ts, which only the server imports
// at run time: the browser gets the types without shipping zod.

export const SOCIAL_TYPES = ['google', 'github'] as const;
export type SocialType = (typeof SOCIAL_TYPES)[number];

export type { AuthorizeRequest } from './schemas';

/** Who may start a new conversation with the user (PATCH /api/accounts/settings). */
export const MESSAGE_POLICIES = ['everyone', 'following', 'nobody'] as const;
export type MessagePolicy = (typeof MESSAGE_POLICIES)[number];
/** A new account's setting (docs/DECISIONS.md). */
export const DEFAULT_MESSAGE_POLICY: MessagePolicy = 'everyone';

/** The user as the API returns it. SPEC §3 only names id, language and is_active. */
export interface User {
  id: number;
  username: string | null;
  email: string | null;
  avatar: string | null;
  language: string;
  is_active: boolean;
  /** Who may start a conversation with them: everyone, people they follow, or nobody. */
  message_policy: MessagePolicy;
}

export interface AuthorizeResponse {
  token: string;
  user: User;
}

/** GET {api}/accounts/info */
export type AccountInfo = User;

/** Error bodies (SPEC §8): payload problems carry non_field_errors, everything else msg. */
export interface FieldErrorsBody {
  non_field_errors: string[];
}
export interface MessageErrorBody {
  msg: string;
}
export type ErrorBody = FieldErrorsBody | MessageErrorBody;
