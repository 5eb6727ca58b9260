// zod schemas for every payload the server validates. Imported at run time by server/ only; the
// client imports their inferred types (type-only imports are erased), so zod stays out of the
// browser bundle. Deliberately not re-exported from index.ts.
import { z } from 'zod';
import {
  MAX_DISPLAY_NAME_LENGTH,
  MAX_EMOJI_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PRESENCE_SUBSCRIPTIONS,
  MESSAGE_POLICIES,
  NOTIFICATION_PREVIEWS,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  SOCIAL_TYPES,
  SUPPORTED_LANGUAGES,
  SYNC_PAGE_MAX,
} from './constants';
import { cleanDisplayName } from './display-text';

export { MAX_DISPLAY_NAME_LENGTH };
// Room for what cleaning removes, while bounding the work on hostile input.
const MAX_RAW_DISPLAY_NAME_LENGTH = MAX_DISPLAY_NAME_LENGTH * 4;

// A control character in a typed name is never a typo (a form field cannot hold one): refused,
// as in file names. Cleaning then removes the invisible ones and tidies the spaces.
const cleanedName = () =>
  z
    .string()
    .max(MAX_RAW_DISPLAY_NAME_LENGTH)
    .refine((name) => !/\p{Cc}/u.test(name), 'Control characters are not allowed.')
    .transform(cleanDisplayName);

/**
 * A name other people see, as stored (display-text.ts: no invisible characters, one space between
 * words): at least one visible character, at most MAX_DISPLAY_NAME_LENGTH. For any field that
 * sets a user's name.
 */
const displayNameSchema = cleanedName().pipe(
  z.string().min(1, 'Must contain a visible character.').max(MAX_DISPLAY_NAME_LENGTH),
);

/** displayNameSchema where the name may be left out: null, or empty once cleaned. */
const optionalDisplayNameSchema = cleanedName().pipe(z.string().max(MAX_DISPLAY_NAME_LENGTH)).nullish();

/** POST {api}/accounts/authorize (docs/API.md), plus the Firebase ID token the server verifies. */
export const authorizeRequestSchema = z.strictObject({
  username: optionalDisplayNameSchema,
  email: z.email().max(320).nullish(),
  firebase_id: z.string().min(1).max(128),
  social_type: z.enum(SOCIAL_TYPES),
  // https only: the pages' CSP (img-src) blocks http images, so an http avatar would never show.
  avatar: z.url({ protocol: /^https$/, error: 'Must be an https:// URL.' }).max(2048).nullish(),
  id_token: z.string().min(1).max(8192),
  /**
   * The language the sign-in screen was shown in (the browser's on a first visit): a new account
   * starts in it; an existing account keeps its own (docs/DECISIONS.md, "The browser's language
   * on a first visit"). Ours, like id_token: not one of the spec's fields.
   */
  language: z.enum(SUPPORTED_LANGUAGES).optional(),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

const userId = z.number().int().positive().max(2_147_483_647);
const messageId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
// Upload ids are base64url (server/db/tables/people.ts).
const uploadId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an upload id.');

const conversationId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** Exactly one of the two fields: where a request goes, by conversation or by person. */
const oneOf = (a: string, b: string) => (payload: Record<string, unknown>) => (payload[a] === undefined) !== (payload[b] === undefined);

/**
 * Socket `send`: into a conversation of the caller's by its id, or to a person by `recipient_id`
 * (how a direct conversation begins); exactly one of the two. Text may be empty only when a file
 * is attached.
 */
export const sendPayloadSchema = z
  .strictObject({
    client_id: z.uuid(),
    conversation_id: conversationId.optional(),
    recipient_id: userId.optional(),
    text: z.string().max(MAX_MESSAGE_LENGTH),
    attachment_id: uploadId.nullish(),
    reply_to: messageId.nullish(),
  })
  .refine((payload) => payload.text.trim() !== '' || payload.attachment_id, {
    message: 'A message needs text or an attachment.',
  })
  .refine(oneOf('conversation_id', 'recipient_id'), { message: 'Give conversation_id or recipient_id, one of them.' });
export type SendPayload = z.infer<typeof sendPayloadSchema>;

/** Socket `follow`: follow (true) or unfollow (false) a user. */
export const followPayloadSchema = z.strictObject({ user_id: userId, follow: z.boolean() });
export type FollowPayload = z.infer<typeof followPayloadSchema>;

/**
 * Socket `read`: the conversation has been seen, up to the message `up_to` (the messages after it
 * stay unread); without it, all of it. Reads only ever go forward.
 */
export const readPayloadSchema = z.strictObject({ conversation_id: conversationId, up_to: messageId.optional() });
export type ReadPayload = z.infer<typeof readPayloadSchema>;

/** PATCH /api/accounts/settings: any of the user's settings, at least one. */
export const settingsRequestSchema = z
  .strictObject({
    language: z.enum(SUPPORTED_LANGUAGES).optional(),
    message_policy: z.enum(MESSAGE_POLICIES).optional(),
    /** Others see when the user is online and when they were last seen; off, the user sees no one's. */
    show_presence: z.boolean().optional(),
    notification_preview: z.enum(NOTIFICATION_PREVIEWS).optional(),
    notification_sound: z.boolean().optional(),
    /** Others see when the user read their messages; off, the user sees no one's either. */
    read_receipts: z.boolean().optional(),
  })
  .refine((settings) => Object.values(settings).some((value) => value !== undefined), {
    message: 'Nothing to change: send at least one setting.',
  });
export type SettingsRequest = z.infer<typeof settingsRequestSchema>;

/**
 * PATCH /api/accounts/profile: the name others see, and the photo (an image the user uploaded;
 * null removes it). Either or both.
 */
export const profileRequestSchema = z
  .strictObject({
    username: displayNameSchema.optional(),
    avatar_upload_id: uploadId.nullable().optional(),
  })
  .refine((profile) => profile.username !== undefined || profile.avatar_upload_id !== undefined, {
    message: 'Nothing to change: send username or avatar_upload_id.',
  });
export type ProfileRequest = z.input<typeof profileRequestSchema>;

/** `sync_conversation`: a conversation the caller is or was a member of, and the seq they hold of it. */
export const syncConversationPayloadSchema = z.strictObject({
  conversation_id: conversationId,
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  limit: z.number().int().min(1).max(SYNC_PAGE_MAX).optional(),
});
export type SyncConversationPayload = z.infer<typeof syncConversationPayloadSchema>;

/**
 * An account cursor as `sync_account` hands it out: the account's seq, a horizon (a transaction
 * id, below 2^64), a place in a page of conversations and, while pages remain, the horizon the
 * first page read (each a decimal without leading zeros).
 */
export const ACCOUNT_CURSOR = /^(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,19})\.(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,19})$/;
const MAX_HORIZON = 2n ** 64n - 1n;
export function isAccountCursor(text: string): boolean {
  const parts = ACCOUNT_CURSOR.exec(text);
  return (
    parts !== null &&
    Number(parts[1]) <= Number.MAX_SAFE_INTEGER &&
    BigInt(parts[2]!) <= MAX_HORIZON &&
    Number(parts[3]) <= Number.MAX_SAFE_INTEGER &&
    BigInt(parts[4]!) <= MAX_HORIZON
  );
}

/** `sync_account`: from a cursor an earlier answer gave (absent or null: from now). */
export const syncAccountPayloadSchema = z.strictObject({
  cursor: z.string().max(64).refine(isAccountCursor, 'Not a cursor this server gave.').nullish(),
  limit: z.number().int().min(1).max(SYNC_PAGE_MAX).optional(),
});
export type SyncAccountPayload = z.infer<typeof syncAccountPayloadSchema>;

/** PATCH /api/conversations/:userId */
export const muteRequestSchema = z.strictObject({ muted: z.boolean() });

/** POST /api/reports: a message the reporter received (message_id), or a person (user_id). */
export const reportRequestSchema = z
  .strictObject({
    user_id: userId.optional(),
    message_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    reason: z.enum(REPORT_REASONS),
    details: z.string().trim().max(REPORT_DETAILS_MAX).nullish(),
  })
  .refine((body) => (body.user_id === undefined) !== (body.message_id === undefined), {
    message: 'Report either a message (message_id) or a person (user_id).',
  });
export type ReportRequest = z.infer<typeof reportRequestSchema>;

/**
 * Socket `typing`: the sender is (true) or stopped (false) writing, in a conversation by its id, or
 * to a person not yet written to; exactly one of the two. Never stored.
 */
export const typingPayloadSchema = z
  .strictObject({ conversation_id: conversationId.optional(), user_id: userId.optional(), typing: z.boolean() })
  .refine(oneOf('conversation_id', 'user_id'), { message: 'Give conversation_id or user_id, one of them.' });
export type TypingPayload = z.infer<typeof typingPayloadSchema>;

/**
 * Socket `presence_subscribe`: the people whose presence this socket follows from now on (it
 * replaces the previous list; empty stops following anyone).
 */
export const presenceSubscribePayloadSchema = z.strictObject({
  user_ids: z.array(userId).max(MAX_PRESENCE_SUBSCRIPTIONS),
});
export type PresenceSubscribePayload = z.infer<typeof presenceSubscribePayloadSchema>;
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


/**
 * One emoji as people pick it: a single fully-qualified emoji of Unicode's recommended set
 * (RGI_Emoji: skin tones, flags, keycaps and ZWJ sequences included), nothing around it. Built
 * with RegExp: the `v` flag postdates the TypeScript target, and Node 20 has it.
 */
const EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

/** Socket `react`: adds (add: true) or removes the caller's reaction with `emoji` to a message of their conversations. */
export const reactPayloadSchema = z.strictObject({
  message_id: messageId,
  emoji: z.string().max(MAX_EMOJI_LENGTH).regex(EMOJI, 'Must be one emoji.'),
  add: z.boolean(),
});
export type ReactPayload = z.infer<typeof reactPayloadSchema>;

/** Socket `edit`: new text for the caller's own message (within the edit window). */
export const editPayloadSchema = z.strictObject({ message_id: messageId, text: z.string().max(MAX_MESSAGE_LENGTH) });
export type EditPayload = z.infer<typeof editPayloadSchema>;

/** Socket `unsend`: deletes the caller's own message for everyone (within the unsend window). */
export const unsendPayloadSchema = z.strictObject({ message_id: messageId });
export type UnsendPayload = z.infer<typeof unsendPayloadSchema>;

/** Socket `hide`: deletes a message of the caller's conversations for the caller only, on all their devices. */
export const hidePayloadSchema = z.strictObject({ message_id: messageId });
export type HidePayload = z.infer<typeof hidePayloadSchema>;
