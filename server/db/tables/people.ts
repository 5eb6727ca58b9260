// A person: their account, the sign-ins that hold it, the browsers that receive their pushes, whom
// they follow, and the files they upload (an avatar is one: users and uploads point at each other).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, createdAtMs } from './columns';
import { searchText, searchVector } from './search';

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
  /** The pair model's per-account seq (messages.sender_seq/recipient_seq): no longer moved since 0022. */
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  /** The seq of the account's newest private item (account_events: the conversation model's account stream). */
  accountSeq: bigint('account_seq', { mode: 'number' }).notNull().default(0),
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
  // Search (server/db/people.ts): a word of one or two letters starts a word of the name (GIN over
  // its words); a longer one is anywhere in it (GIN over its trigrams, pg_trgm); an email only
  // whole. Both on the folded name (./search.ts). fastupdate off: PGlite runs no autovacuum, so
  // GIN's pending list would never be merged and every search would read it whole (8 ms instead
  // of 0.4 ms at 20,000 users); names change rarely.
  index('users_username_search_idx').using('gin', searchVector(table.username)).with({ fastupdate: false }),
  index('users_username_trgm_idx').using('gin', sql`${searchText(table.username)} gin_trgm_ops`).with({ fastupdate: false }),
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
