import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// Millisecond precision where the value is part of a keyset cursor: JS Dates round-trip it exactly.
const createdAtMs = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  firebaseUid: text('firebase_uid').notNull().unique(),
  username: text('username'),
  email: text('email'),
  avatar: text('avatar'),
  socialType: text('social_type').notNull(),
  language: text('language').notNull().default('en'),
  isActive: boolean('is_active').notNull().default(true),
  /** The seq of the newest message this account sent or received (messages.sender_seq/recipient_seq). */
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  /** What a notification may show of a message: 'text', 'sender' (only who wrote) or 'none'. */
  notificationPreview: text('notification_preview').notNull().default('text'),
  /** Whether a notification plays a sound. */
  notificationSound: boolean('notification_sound').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [
  // Case-insensitive prefix search (lower(x) LIKE 'ab%'); text_pattern_ops works under any collation.
  index('users_username_prefix_idx').using('btree', sql`lower(${table.username}) text_pattern_ops`),
  index('users_email_prefix_idx').using('btree', sql`lower(${table.email}) text_pattern_ops`),
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
  },
  (table) => [index('uploads_owner_id_idx').on(table.ownerId)],
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
    // Each side's per-account sequence (users.last_seq at insert): 1, 2, 3… with no gaps, in commit
    // order, so a client that holds 1…n knows it has missed nothing up to n (docs/DELIVERY.md).
    senderSeq: bigint('sender_seq', { mode: 'number' }).notNull(),
    recipientSeq: bigint('recipient_seq', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
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
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    peerId: integer('peer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // No cascade: deleting a conversation's last message must also move this pointer, deliberately.
    lastMessageId: bigint('last_message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    /** Messages from peer to user not yet read: the source of truth for every unread number. */
    unreadCount: integer('unread_count').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.peerId] }),
    // Newest first by last message id (read backwards): ids are unique and increasing, so the
    // keyset is one column.
    index('conversations_recent_idx').on(table.userId, table.lastMessageId),
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
export type MessageRow = typeof messages.$inferSelect;
export type FollowRow = typeof follows.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
