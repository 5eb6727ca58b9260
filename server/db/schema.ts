import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Reaction } from '../../lib/contract/messaging';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/** Postgres full-text words; drizzle has no built-in type for them. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// Millisecond precision where the value is part of a keyset cursor: JS Dates round-trip it exactly.
const createdAtMs = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();

/**
 * What people search is matched against: the username's words (tsvector, 'simple' configuration:
 * lowercased, no stemming or stop words, any script). Dots, @, slashes and hyphens become spaces
 * first, or the parser would keep "john.smith" or "a@b.c" whole as one host or email token and
 * "smith" would not find it. Shared by the index and the query, which must spell it the same.
 */
export const usernameSearchVector = (username: AnyPgColumn) => sql`to_tsvector('simple', translate(${username}, '.@/-', '    '))`;

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  firebaseUid: text('firebase_uid').notNull().unique(),
  username: text('username'),
  email: text('email'),
  avatar: text('avatar'),
  socialType: text('social_type').notNull(),
  language: text('language').notNull().default('en'),
  isActive: boolean('is_active').notNull().default(true),
  /** Who may start a conversation with this account: 'everyone' | 'following' | 'nobody' (MESSAGE_POLICIES). */
  messagePolicy: text('message_policy').notNull().default('everyone'),
  /**
   * Set when the account was deleted: the row stays as a tombstone (is_active false, no profile,
   * no firebase uid of anyone's) so the other side of its conversations keeps their messages.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** The seq of the newest message this account sent or received (messages.sender_seq/recipient_seq). */
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  /**
   * When the Firebase account was last found enabled (or last asked, when Firebase did not
   * answer): every node reads it, so a user's account is checked once per interval in all
   * (server/auth/account-check.ts).
   */
  firebaseCheckedAt: timestamp('firebase_checked_at', { withTimezone: true }),
  /** Others may see when this user is online and was last seen (and this user sees theirs). */
  showPresence: boolean('show_presence').notNull().default(true),
  /** When the user's last tab closed (written when they go offline; null: not since this existed). */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }),
  /** What a notification may show of a message: 'text', 'sender' (only who wrote) or 'none'. */
  notificationPreview: text('notification_preview').notNull().default('text'),
  /** Whether a notification plays a sound. */
  notificationSound: boolean('notification_sound').notNull().default(true),
  /**
   * When the user last set their display name themselves (PATCH /api/accounts/profile). Null: the
   * name follows the social provider at each sign-in; set, sign-ins leave it alone.
   */
  usernameChosenAt: timestamp('username_chosen_at', { withTimezone: true }),
  /** As username_chosen_at, for the photo: set when the user uploaded one or removed theirs. */
  avatarChosenAt: timestamp('avatar_chosen_at', { withTimezone: true }),
  /**
   * The upload `avatar` points at when the user chose a photo of theirs (null: the provider's URL,
   * or none). Kept so the file can be deleted when it is replaced; its account's deletion erases it.
   */
  avatarUploadId: text('avatar_upload_id').references((): AnyPgColumn => uploads.id, { onDelete: 'set null' }),
  /**
   * Read receipts: on, the people this user writes with see when their messages were read (when
   * they have receipts on too); off, the user neither sends nor sees any (docs/DECISIONS.md).
   */
  readReceipts: boolean('read_receipts').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [
  // Search: the start of any word of the username (GIN over its words), an email only whole.
  // fastupdate off: PGlite runs no autovacuum, so GIN's pending list would never be merged and
  // every search would read it whole (8 ms instead of 0.4 ms at 20,000 users); names change rarely.
  index('users_username_search_idx').using('gin', usernameSearchVector(table.username)).with({ fastupdate: false }),
  index('users_email_lower_idx').using('btree', sql`lower(${table.email})`),
  // Deleting an upload sets avatar_upload_id null where it was someone's photo: without this, every
  // upload the sweeper or an account deletion removes would scan the users table.
  index('users_avatar_upload_idx').on(table.avatarUploadId).where(sql`${table.avatarUploadId} is not null`),
  // The values of MESSAGE_POLICIES (lib/contract/constants.ts): the send path compares against them in SQL.
  check('users_message_policy_check', sql`${table.messagePolicy} in ('everyone', 'following', 'nobody')`),
  // The values of NOTIFICATION_PREVIEWS (lib/contract/constants.ts).
  check('users_notification_preview_check', sql`${table.notificationPreview} in ('text', 'sender', 'none')`),
]);

export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // sha256 hex of the raw token: a database leak must not hand out working sessions.
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: integer('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAtMs(),
  },
  (table) => [
    primaryKey({ columns: [table.followerId, table.followeeId] }),
    // Follow lists page newest first: (created_at, other id) is the keyset. Ascending columns read
    // backwards match ORDER BY … DESC (NULLS FIRST, the default) and the row comparison on the keyset.
    index('follows_followee_idx').on(table.followeeId, table.createdAt, table.followerId),
    index('follows_follower_recent_idx').on(table.followerId, table.createdAt, table.followeeId),
  ],
);

/** Files a user uploaded; a message may point at one. The routes that fill it come with the uploads work. */
export const uploads = pgTable(
  'uploads',
  {
    // Random and unguessable: the id is part of the file's URL.
    id: text('id')
      .primaryKey()
      .$defaultFn(() => randomBytes(18).toString('base64url')),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
    /**
     * When a message first carried it (set in the same transaction). Null: never attached, so the
     * sweeper deletes it UNATTACHED_UPLOAD_TTL after created_at (storage/upload-sweeper.ts).
     */
    attachedAt: timestamp('attached_at', { withTimezone: true }),
  },
  (table) => [
    index('uploads_owner_id_idx').on(table.ownerId),
    // The sweeper's candidates, oldest first, without walking the uploads that messages carry.
    index('uploads_unattached_idx').on(table.createdAt).where(sql`${table.attachedAt} is null`),
  ],
);

/**
 * Bytes an upload in progress holds against its owner's quota, from before its body is read until
 * its uploads row exists (server/db/upload-quota.ts). A node killed mid-upload leaves its row
 * behind; the sweeper deletes rows older than an upload can take.
 */
export const uploadReservations = pgTable(
  'upload_reservations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('upload_reservations_user_id_idx').on(table.userId)],
);

export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Chosen by the sender's outbox so a resent message is stored once.
    clientId: text('client_id').notNull(),
    text: text('text').notNull(),
    attachmentId: text('attachment_id').references(() => uploads.id),
    /** The attachment's upload was erased with its owner's account: shown as removed. */
    attachmentRemoved: boolean('attachment_removed').notNull().default(false),
    // Each side's per-account sequence (users.last_seq at insert): 1, 2, 3… with no gaps, in commit
    // order, so a client that holds 1…n knows it has missed nothing up to n (docs/DELIVERY.md).
    senderSeq: bigint('sender_seq', { mode: 'number' }).notNull(),
    recipientSeq: bigint('recipient_seq', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    /** When the recipient read it: the recipient's own unread state (and conversations.unread_count's). */
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * The read receipt: when the recipient read it, set with read_at only if both sides had read
     * receipts on then, so a read made while they were off never shows later. The sender sees it
     * as their payload's read_at while both still have them on.
     */
    seenAt: timestamp('seen_at', { withTimezone: true }),
    /** The sender last changed its text (null: never edited). */
    editedAt: timestamp('edited_at', { withTimezone: true, precision: 3 }),
    /** Unsent for everyone: text and attachment gone, reactions cleared; the row stays as "Message deleted". */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    /**
     * Who reacted with what, oldest first (message_reactions summarised, written in the same
     * transaction): every payload carries it without a join.
     */
    reactions: jsonb('reactions').$type<Reaction[]>().notNull().default([]),
    /**
     * Each side's seq of the latest change to this message (edit, reaction, unsend) in its own
     * stream (message_events); null: never changed. A client applies a change only when its seq
     * is newer than the version it holds (docs/DELIVERY.md, "Changes to messages").
     */
    senderVersion: bigint('sender_version', { mode: 'number' }),
    recipientVersion: bigint('recipient_version', { mode: 'number' }),
    /**
     * The message this one answers, in the same conversation (checked when it is stored). No
     * foreign key: messages are never deleted (unsending keeps the row), and a key would cost
     * every message insert a lookup the send path already makes.
     */
    replyToId: bigint('reply_to_id', { mode: 'number' }),
    /**
     * What search matches: the current text (an edit rewrites it, unsending empties it) as words
     * of the language-agnostic `simple` configuration (docs/DECISIONS.md, "Search in messages").
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, "text")`),
  },
  (table) => [
    unique('messages_sender_client_id_unique').on(table.senderId, table.clientId),
    // `sync` reads each side's range in seq order.
    unique('messages_sender_seq_unique').on(table.senderId, table.senderSeq),
    unique('messages_recipient_seq_unique').on(table.recipientId, table.recipientSeq),
    // A thread is both directions of a pair: one index over the normalised pair serves its pages
    // newest first with a single backward range scan (see listThread). Ascending id on purpose:
    // drizzle writes .desc() as DESC NULLS LAST, which ORDER BY id DESC (NULLS FIRST) cannot use.
    index('messages_pair_idx').on(
      sql`least(${table.senderId}, ${table.recipientId})`,
      sql`greatest(${table.senderId}, ${table.recipientId})`,
      table.id,
    ),
    // Partial index: marking a conversation read only ever looks at its unread rows.
    index('messages_unread_by_pair_idx').on(table.recipientId, table.senderId).where(sql`${table.readAt} is null`),
    index('messages_attachment_id_idx').on(table.attachmentId),
    // 256 kB pending list: without autovacuum the insert that fills it merges it (docs/DECISIONS.md).
    index('messages_search_idx').using('gin', table.searchVector).with({ gin_pending_list_limit: 256 }),
  ],
);

/**
 * One row per (user, peer) that have exchanged messages, for each side: the conversation list and
 * the unread counters without scanning messages. Written in the same transaction as the message
 * inserts and read marks that change it (server/db/messages.ts), never elsewhere.
 */
export const conversations = pgTable(
  'conversations',
  {
    // No foreign keys here, on purpose: each one was a trigger and a lookup for every row of every
    // message batch (two rows a message), and none could fire. The one writer of these rows (the
    // message batch) has locked both users FOR UPDATE and just inserted the message it points to;
    // users rows are never deleted (an account's deletion leaves a tombstone and removes its own
    // conversation rows), nor are messages. server/db/conversation-integrity.test.ts holds to it.
    userId: integer('user_id').notNull(),
    peerId: integer('peer_id').notNull(),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    /** Messages from peer to user not yet read: the source of truth for every unread number. */
    unreadCount: integer('unread_count').notNull().default(0),
    /** The user muted this conversation: it keeps its badge but never notifies, on any device. */
    muted: boolean('muted').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.peerId] }),
    // Newest first by last message id (read backwards): ids are unique and increasing, so the
    // keyset is one column.
    index('conversations_recent_idx').on(table.userId, table.lastMessageId),
  ],
);

/** One person's reaction with one emoji to one message (a person may add several different ones). */
export const messageReactions = pgTable(
  'message_reactions',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: createdAtMs(),
  },
  // The summary of one message reads its prefix; a person's own reactions on it, the next column.
  (table) => [primaryKey({ columns: [table.messageId, table.userId, table.emoji] })],
);

/** "Delete for me": the message is gone from this user's threads, list and sync, on every device. */
export const messageHidden = pgTable(
  'message_hidden',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  // Every read that leaves hidden messages out probes (user, message).
  (table) => [primaryKey({ columns: [table.userId, table.messageId] })],
);

/** The kinds of message_events (MessageChange in lib/contract/messaging.ts). */
export const MESSAGE_CHANGE_KINDS = ['read', 'seen', 'reaction', 'edit', 'unsend', 'hide'] as const;

/**
 * The per-account stream's changes to messages: one row per account a change concerns, at that
 * account's next seq (users.last_seq, shared with the messages it sent and received), written in
 * the change's transaction. `sync` returns them merged with the messages by seq
 * (docs/DELIVERY.md, "Changes to messages"). `state` is the message's resulting state as that
 * account sees it, so applying a change twice or late is harmless.
 */
export const messageEvents = pgTable(
  'message_events',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    // Messages are never deleted (accounts leave tombstones, unsending keeps the row), so this
    // cascade never runs and needs no index of its own.
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAtMs(),
  },
  (table) => [
    // `sync`'s range scan (user, seq > after), as messages' (user, seq) unique indexes serve theirs.
    primaryKey({ columns: [table.userId, table.seq] }),
    check('message_events_kind_check', sql`${table.kind} in ('read', 'seen', 'reaction', 'edit', 'unsend', 'hide')`),
  ],
);

/** blocker_id blocked blocked_id: neither can message or follow the other, nor find them in search. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAtMs(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerId, table.blockedId] }),
    // "Who blocked me" (search, profiles) probes by the blocked side.
    index('blocks_blocked_idx').on(table.blockedId, table.blockerId),
  ],
);

/** A report of a person, or of a message they sent to the reporter, for the moderators. */
export const reports = pgTable(
  'reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportedUserId: integer('reported_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, { onDelete: 'set null' }),
    /** The message's text when it was reported: what the moderators judge, whatever happens to it later. */
    messageText: text('message_text'),
    reason: text('reason').notNull(),
    details: text('details'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    index('reports_reporter_idx').on(table.reporterId),
    // REPORT_REASONS (lib/contract/safety.ts).
    check('reports_reason_check', sql`${table.reason} in ('spam', 'harassment', 'inappropriate', 'other')`),
    // The moderators' queue: open reports, oldest first.
    index('reports_open_idx').on(table.id).where(sql`${table.resolvedAt} is null`),
  ],
);

/**
 * One row per browser (push service endpoint) that receives Web Push for its user. The endpoint is
 * the key: a browser has one, and a new sign-in there takes it over. Tied to the session that
 * registered it, so signing out removes exactly that device's row.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    endpoint: text('endpoint').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The browser's P-256 public key and auth secret (base64url): the payload is encrypted to them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('push_subscriptions_user_id_idx').on(table.userId), index('push_subscriptions_session_id_idx').on(table.sessionId)],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
/** A message as the server reads it: search_vector is the index's business, never read back. */
export type MessageRow = Omit<typeof messages.$inferSelect, 'searchVector'>;
export type FollowRow = typeof follows.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type BlockRow = typeof blocks.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type MessageEventRow = typeof messageEvents.$inferSelect;
