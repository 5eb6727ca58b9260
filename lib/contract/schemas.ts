// zod schemas for every payload the server validates. Imported at run time by server/ only; the
// client imports their inferred types (type-only imports are erased), so zod stays out of the
// browser bundle. Deliberately not re-exported from index.ts.
import { z } from 'zod';
import { MAX_MESSAGE_LENGTH, NOTIFICATION_PREVIEWS, SOCIAL_TYPES, SUPPORTED_LANGUAGES, SYNC_PAGE_MAX } from './constants';

const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** POST {api}/accounts/authorize (docs/API.md), plus the Firebase ID token the server verifies. */
export const authorizeRequestSchema = z.strictObject({
  username: optionalText(100),
  email: z.email().max(320).nullish(),
  firebase_id: z.string().min(1).max(128),
  social_type: z.enum(SOCIAL_TYPES),
  avatar: z.url({ protocol: /^https?$/ }).max(2048).nullish(),
  id_token: z.string().min(1).max(8192),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

const userId = z.number().int().positive().max(2_147_483_647);

/** Socket `send`. Text may be empty only when a file is attached. */
export const sendPayloadSchema = z
  .strictObject({
    client_id: z.uuid(),
    recipient_id: userId,
    text: z.string().max(MAX_MESSAGE_LENGTH),
    // Upload ids are base64url (server/db/schema.ts).
    attachment_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an upload id.').nullish(),
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

/** PATCH /api/accounts/settings: any of the user's settings, at least one. */
export const settingsRequestSchema = z
  .strictObject({
    language: z.enum(SUPPORTED_LANGUAGES).optional(),
    notification_preview: z.enum(NOTIFICATION_PREVIEWS).optional(),
    notification_sound: z.boolean().optional(),
  })
  .refine((settings) => Object.values(settings).some((value) => value !== undefined), { message: 'Nothing to change.' });
export type SettingsRequest = z.infer<typeof settingsRequestSchema>;

/** Socket `sync`: the signed-in account's messages with seq > after, oldest first. */
export const syncPayloadSchema = z.strictObject({
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  limit: z.number().int().min(1).max(SYNC_PAGE_MAX).optional(),
});
export type SyncPayload = z.infer<typeof syncPayloadSchema>;

/** base64url of exactly `bytes` bytes (the Push API's keys). */
const base64urlKey = (bytes: number) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'Not base64url.')
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, `Must be ${bytes} bytes.`);

/** POST /api/push/subscriptions: the browser's PushSubscription.toJSON(). */
export const pushSubscriptionSchema = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullish(),
  keys: z.strictObject({
    p256dh: base64urlKey(65).refine((value) => Buffer.from(value, 'base64url')[0] === 4, 'Must be an uncompressed P-256 point.'),
    auth: base64urlKey(16),
  }),
});

/** DELETE /api/push/subscriptions */
export const pushUnsubscribeSchema = z.strictObject({ endpoint: z.string().min(1).max(2048) });

/** Socket `visibility`: whether the tab this socket belongs to is in view. */
export const visibilityPayloadSchema = z.strictObject({ visible: z.boolean() });
export type VisibilityPayload = z.infer<typeof visibilityPayloadSchema>;
