// HTTP payloads shared by the client (lib/api) and the server (server/http).
// Schemas live here so the server validates exactly what the client's types promise.
import { z } from 'zod';

export const SOCIAL_TYPES = ['google', 'github'] as const;
export type SocialType = (typeof SOCIAL_TYPES)[number];

const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** POST {api}/accounts/authorize (SPEC §7), plus the Firebase ID token the server verifies. */
export const authorizeRequestSchema = z.strictObject({
  username: optionalText(100),
  email: z.email().max(320).nullish(),
  firebase_id: z.string().min(1).max(128),
  social_type: z.enum(SOCIAL_TYPES),
  avatar: z.url({ protocol: /^https?$/ }).max(2048).nullish(),
  id_token: z.string().min(1).max(8192),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

/** The user as the API returns it. SPEC §3 only names id, language and is_active. */
export interface User {
  id: number;
  username: string | null;
  email: string | null;
  avatar: string | null;
  language: string;
  is_active: boolean;
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
