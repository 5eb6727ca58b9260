// The contract's values (the other files hold types only, apart from people.ts' page sizes):
// schemas.ts builds on these, so nothing here imports from the rest of the contract.

/** The two localStorage keys and the token's prefix (docs/CLIENT-RULES.md). */
export const TOKEN_STORAGE_KEY = 'token';
export const LOCALE_STORAGE_KEY = 'locale';
export const TOKEN_PREFIX = 'Bearer';

/**
 * Largest upload: 50 MB in decimal units, 50,000,000 bytes (docs/CLIENT-RULES.md, "Constants"):
 * the unit every size is shown in (lib/i18n/format.ts), so the limit, the check and the label agree.
 */
export const MAX_UPLOAD_BYTES = 50_000_000;

export const SOCIAL_TYPES = ['google', 'github'] as const;
export type SocialType = (typeof SOCIAL_TYPES)[number];

/** The UI languages (PATCH /api/accounts/settings). */
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE = 'en';

/** Longest display name, in UTF-16 code units once cleaned (display-text.ts). */
export const MAX_DISPLAY_NAME_LENGTH = 100;

/** Longest message text, in characters (UTF-16 code units, as String.length counts). */
export const MAX_MESSAGE_LENGTH = 4000;
/** Longest emoji a reaction may be, in UTF-16 code units (the longest ZWJ family sequences are 11). */
export const MAX_EMOJI_LENGTH = 32;
/** Different emoji one person may put on one message. */
export const MAX_REACTIONS_PER_PERSON = 12;
/** The reactions offered first, one click each (the rest come from the picker). */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;
/** Messages per thread page (GET /api/conversations/:userId/messages). */
export const THREAD_PAGE_SIZE = 50;
/** Messages per page of GET /api/messages/search. */
export const MESSAGE_SEARCH_PAGE_SIZE = 20;
/** Longest search in messages, in characters: far beyond a phrase anyone types. */
export const MESSAGE_SEARCH_MAX_QUERY = 200;
/** Characters of the answered message a reply's quote carries (its first line is what shows). */
export const REPLY_SNIPPET_LENGTH = 200;
/** Conversations per page (GET /api/conversations). */
export const CONVERSATION_PAGE_SIZE = 30;
/** Most messages one socket `sync` answer carries (and its default). */
export const SYNC_PAGE_MAX = 500;
/** Changed conversations `sync_account` answers at most at once (then `has_more`). */
export const SYNC_CONVERSATIONS_PAGE = 100;

/** Who may start a new conversation with the user (PATCH /api/accounts/settings). */
export const MESSAGE_POLICIES = ['everyone', 'following', 'nobody'] as const;
export type MessagePolicy = (typeof MESSAGE_POLICIES)[number];
/** A new account's setting (docs/DECISIONS.md). */
export const DEFAULT_MESSAGE_POLICY: MessagePolicy = 'everyone';

/** What a report says is wrong; `other` wants details. */
export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** Longest free text a report may carry, in characters. */
export const REPORT_DETAILS_MAX = 1000;

/**
 * Typing signals (docs/DECISIONS.md, "Live signals"). While someone types, the client sends
 * `typing: true` at once and again every TYPING_REFRESH_MS; TYPING_IDLE_MS after the last keystroke
 * (or at send, blur, or an emptied box) it sends `typing: false`. The receiver forgets a `true`
 * not renewed within TYPING_EXPIRY_MS, so a lost `false` clears by itself.
 */
export const TYPING_REFRESH_MS = 3_000;
export const TYPING_IDLE_MS = 5_000;
export const TYPING_EXPIRY_MS = 7_000;
/** Most people one socket follows the presence of (`presence_subscribe`). */
export const MAX_PRESENCE_SUBSCRIPTIONS = 100;
/**
 * What a notification may show of a message (PATCH /api/accounts/settings): its text and sender,
 * only who wrote, or nothing but "You have a new message".
 */
export const NOTIFICATION_PREVIEWS = ['text', 'sender', 'none'] as const;
export type NotificationPreview = (typeof NOTIFICATION_PREVIEWS)[number];
export const DEFAULT_NOTIFICATION_PREVIEW: NotificationPreview = 'text';
/** Characters of a message's text a notification shows at most (the push payload stays far below 4 KiB). */
export const NOTIFICATION_TEXT_MAX = 180;
