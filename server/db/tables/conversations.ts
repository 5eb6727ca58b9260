// Conversations first (docs/design/conversations.md): a conversation has an id, members and its own
// order of messages and changes, for a direct conversation and a group alike. Added by 0017 beside
// the pair model (messages keyed by sender and recipient, conversations per side) and filled by its
// backfill; every read moved here, and since 0022 nothing writes the pair model either
// (docs/DECISIONS.md, "Conversations, not pairs").
//
// Every key starts with the conversation id, or with the account id for an account's own rows, so
// the tables can be distributed by conversation (docs/DEPLOY.md). Nothing keys to a conversation
// with a foreign key, as nothing keys to the pair model's conversations: a direct conversation is
// created by its first message, in the send path's one statement with its members and list rows,
// and each key would be a lookup per row there (0018; docs/DECISIONS.md, "Conversations, not
// pairs: the expand step"). Their writers hold the conversation's people locked, and
// testing/conversation-model.ts checks for rows of no conversation. Keys to users stay.
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtMs } from './columns';
import { uploads, users } from './people';

/** A transaction id that never wraps around (Postgres 13+): what "changed since" compares. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * One row per conversation, its head: the newest seq of its stream (messages and changes share it,
 * gapless, taken under this row's lock), the newest message for the list, and the members' count.
 * Named conversations_v2 while the pair model holds `conversations` (a rename is not safe during a
 * rolling deploy); the release that drops the pair model renames it.
 */
export const conversationsV2 = pgTable(
  'conversations_v2',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    /** A direct conversation's two people, the smaller id first: at most one conversation per pair. */
    directLow: integer('direct_low'),
    directHigh: integer('direct_high'),
    /** A group's name and photo (null: its members' names and photos stand in). */
    title: text('title'),
    avatarUploadId: text('avatar_upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtMs(),
    /** The newest seq of the conversation's stream (0: nothing yet). */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    /** The newest message: its seq (unread counts), id and time (the list's order and preview). */
    lastMessageSeq: bigint('last_message_seq', { mode: 'number' }),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /**
     * The number of messages in the conversation, the newest message's `ordinal` (0020: written with
     * every message since; required since 0021 counted again what older nodes wrote).
     */
    messageCount: bigint('message_count', { mode: 'number' }).notNull().default(0),
    memberCount: integer('member_count').notNull().default(0),
    /** Moved by every change of membership: a node's cached member list compares it. */
    membersVersion: integer('members_version').notNull().default(0),
    /** The transaction that last moved the head: "which of my conversations changed" reads it. */
    changedXid: xid8('changed_xid'),
  },
  (table) => [
    uniqueIndex('conversations_v2_direct_pair_idx').on(table.directLow, table.directHigh).where(sql`${table.kind} = 'direct'`),
    check('conversations_v2_kind_check', sql`${table.kind} in ('direct', 'group')`),
    check(
      'conversations_v2_direct_pair_check',
      sql`(${table.kind} = 'direct') = (${table.directLow} is not null and ${table.directHigh} is not null and ${table.directLow} < ${table.directHigh})`,
    ),
    check('conversations_v2_member_count_check', sql`${table.memberCount} between 0 and 256`),
  ],
);

/**
 * A person in a conversation, with what is theirs in it: where they have read to, their receipt,
 * role and mute, and the span they may read (`joined_seq < seq <= coalesce(left_seq, last_seq)`).
 * Someone who left keeps the row: what they could read stays theirs, nothing after reaches them.
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('member'),
    /** Everything up to this seq is read: unread counts derive from it and the head. */
    readSeq: bigint('read_seq', { mode: 'number' }).notNull().default(0),
    /** The read receipt others may see (moved with read_seq only while receipts allow it). */
    seenSeq: bigint('seen_seq', { mode: 'number' }).notNull().default(0),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    /** Sent at least one message here (presence: "wrote to"). */
    wrote: boolean('wrote').notNull().default(false),
    muted: boolean('muted').notNull().default(false),
    joinedSeq: bigint('joined_seq', { mode: 'number' }).notNull().default(0),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    addedBy: integer('added_by'),
    leftSeq: bigint('left_seq', { mode: 'number' }),
    leftAt: timestamp('left_at', { withTimezone: true }),
    leftReason: text('left_reason'),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userId] }),
    check('conversation_members_role_check', sql`${table.role} in ('member', 'admin')`),
    check('conversation_members_left_check', sql`(${table.leftAt} is null) = (${table.leftReason} is null) and ${table.leftReason} in ('left', 'removed', 'deleted')`),
  ],
);

/**
 * An account's conversations, keyed by the account: the list, the unread total and "my direct
 * conversation with X" (`peer_id`) read here by account id, where an index on the members by user
 * would send each such query to every shard. Written only when membership changes.
 */
export const accountConversations = pgTable(
  'account_conversations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    /** The other person of a direct conversation (null in a group). */
    peerId: integer('peer_id'),
    leftAt: timestamp('left_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.conversationId] }),
    uniqueIndex('account_conversations_peer_idx').on(table.userId, table.peerId).where(sql`${table.peerId} is not null`),
    check('account_conversations_kind_check', sql`${table.kind} in ('direct', 'group') and (${table.kind} = 'direct') = (${table.peerId} is not null)`),
  ],
);

/**
 * A change in a conversation, one row for every member: to a message (its resulting state, the
 * same for everyone) or to the conversation (who joined or left, a new name). It takes the
 * conversation's next seq, shared with the messages, so one cursor per conversation covers both.
 */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The message changed (null for a change to the conversation). */
    messageId: bigint('message_id', { mode: 'number' }),
    actorId: integer('actor_id').notNull(),
    kind: text('kind').notNull(),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAtMs(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.seq] }),
    check('conversation_events_kind_check', sql`${table.kind} in ('reaction', 'edit', 'unsend', 'member_added', 'member_removed', 'member_left', 'role', 'title')`),
  ],
);

/**
 * An account's private items, for its own devices only, at the account's next seq
 * (users.account_seq, gapless, taken under the user row's lock): its reads, "delete for me", the
 * conversations it joined or left, mutes. Only the acting or affected account gets a row.
 */
export const accountEvents = pgTable(
  'account_events',
  {
    userId: integer('user_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAtMs(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.seq] }),
    check('account_events_kind_check', sql`${table.kind} in ('read', 'hide', 'joined', 'removed', 'left', 'muted')`),
  ],
);
