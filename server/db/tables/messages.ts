// Messages, the conversation rows that summarise them for each side, and what happens to a message
// after it is sent (reactions, delete for me, the per-account stream's changes).
import { sql } from 'drizzle-orm';
import type { Reaction } from '../../../lib/contract/messaging';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, createdAtMs, tsvector } from './columns';
import { users, uploads } from './people';
import { searchVector } from './search';

export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // A direct conversation's other person (a group's messages will have none): the change batch
    // still finds a message's two people by it, and a reply's check its conversation, until
    // groups move both to membership.
    recipientId: integer('recipient_id').references(() => users.id, { onDelete: 'cascade' }),
    // Chosen by the sender's outbox so a resent message is stored once.
    clientId: text('client_id').notNull(),
    text: text('text').notNull(),
    attachmentId: text('attachment_id').references(() => uploads.id),
    /** The attachment's upload was erased with its owner's account: shown as removed. */
    attachmentRemoved: boolean('attachment_removed').notNull().default(false),
    // Each side's per-account sequence in the pair model (users.last_seq at insert): null since
    // 0022, which stopped writing it; the previous release's rows keep theirs until the contract step.
    senderSeq: bigint('sender_seq', { mode: 'number' }),
    recipientSeq: bigint('recipient_seq', { mode: 'number' }),
    createdAt: createdAt(),
    // read_at, seen_at and the two versions: the pair model's, no longer written since 0022 (read
    // positions and receipts are the members' now, versions the conversation's).
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
     * The pair model's per-side versions (the seq of the latest change in each account's stream,
     * message_events): no longer written since 0022; clients compare `version`, below.
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
     * The previous release's search words (the raw text's, accents and links left as they were):
     * nothing here reads them, but its nodes still do during a rolling deploy, so the column goes
     * with the next release's migration (docs/DECISIONS.md, "Search: accents, middles of names,
     * links"). Its index went already: those nodes then search the caller's messages by filter.
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, "text")`),
    /**
     * The conversation model's place for this message (./conversations.ts): its conversation, its
     * seq there, and the seq of its latest change (`seq` while unchanged). Filled by 0017's backfill,
     * written with every message since, and required since 0019 filled the messages that nodes of
     * the release before conversations stored during the rolling deploy.
     */
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    /**
     * Counts at this message, from which unread counts come in a few index probes however many are
     * unread (docs/design/conversations.md 3.6): `ordinal`, the conversation's number of messages
     * up to and including it (1…n in seq order); `senderOrdinal`, its sender's number of messages
     * in the conversation up to and including it. Added by 0020 and written with every message
     * since; required since 0021 numbered again what nodes of the release before stored without
     * them during the rolling deploy.
     */
    ordinal: bigint('ordinal', { mode: 'number' }).notNull(),
    senderOrdinal: bigint('sender_ordinal', { mode: 'number' }).notNull(),
  },
  (table) => [
    unique('messages_sender_client_id_unique').on(table.senderId, table.clientId),
    // Each account's own numbering (the pair model, written for the release before; read by nothing).
    unique('messages_sender_seq_unique').on(table.senderId, table.senderSeq),
    unique('messages_recipient_seq_unique').on(table.recipientId, table.recipientSeq),
    // Both directions of a pair: the pair model's reads of a pair's newest messages (the list's
    // preview when the last one is hidden, the change batch's) with a single backward range scan;
    // thread pages read by (conversation_id, seq) since the reads began to move (0019). Ascending id
    // on purpose: drizzle writes .desc() as DESC NULLS LAST, which ORDER BY id DESC cannot use.
    index('messages_pair_idx').on(
      sql`least(${table.senderId}, ${table.recipientId})`,
      sql`greatest(${table.senderId}, ${table.recipientId})`,
      table.id,
    ),
    index('messages_attachment_id_idx').on(table.attachmentId),
    // What search matches: the words of the current text (an edit rewrites it, unsending empties
    // it), folded as ./search.ts says (docs/DECISIONS.md, "Search in messages"). 256 kB pending
    // list: without autovacuum the insert that fills it merges it (docs/DECISIONS.md).
    index('messages_search_idx').using('gin', searchVector(table.text)).with({ gin_pending_list_limit: 256 }),
    // A conversation's messages in order (./conversations.ts), each at a seq of its own.
    uniqueIndex('messages_conversation_seq_idx').on(table.conversationId, table.seq),
    // A member's own messages in a conversation, newest first by a backward scan: their last
    // `sender_ordinal` at or before a seq (unread counts, and the next one a send takes). Serves what
    // messages_pair_idx serves for direct conversations, which goes with the pair model.
    index('messages_conversation_sender_idx').on(table.conversationId, table.senderId, table.seq),
    // The unsent messages of a conversation, few: unread counts leave out those in the member's range.
    index('messages_unsent_idx').on(table.conversationId, table.seq).where(sql`${table.deletedAt} is not null`),
  ],
);

/**
 * The pair model's list: one row per (user, peer) that had exchanged messages, for each side, with
 * its unread counter. No longer written since 0022 (a mute still sets `muted` on a row the previous
 * release left, for its nodes during the rollout); the contract step drops it. The list is
 * conversation_members and account_conversations now (./conversations.ts).
 */
export const conversations = pgTable(
  'conversations',
  {
    // No foreign keys here, on purpose: each one was a trigger and a lookup for every row of every
    // message batch (two rows a message), and none could fire. Its one writer (the message batch,
    // until 0022) had locked both users FOR UPDATE and just inserted the message it points to;
    // users rows are never deleted (an account's deletion leaves a tombstone and removes its own
    // conversation rows), nor are messages.
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
    /** The message's conversation (0017; required since 0019), so every read and write of reactions can name it. */
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
  },
  // The summary of one message reads its prefix; a person's own reactions on it, the next column.
  (table) => [primaryKey({ columns: [table.messageId, table.userId, table.emoji] })],
);

/** "Delete for me": the message is gone from this user's threads, list and catch-up, on every device. */
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
    /** The message's conversation (0017; required since 0019), so a member's hidden messages are found by conversation. */
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
  },
  // Every read that leaves hidden messages out probes (user, message); an unread count from
  // ordinals takes the member's few in one conversation (0020).
  (table) => [primaryKey({ columns: [table.userId, table.messageId] }), index('message_hidden_conversation_idx').on(table.userId, table.conversationId)],
);

/**
 * Columns of messages the server never reads: search_vector (the index's business) and the pair
 * model's, no longer written since 0022 (dropped by the contract step).
 */
export const MESSAGE_UNREAD_COLUMNS = ['searchVector', 'senderSeq', 'recipientSeq', 'readAt', 'seenAt', 'senderVersion', 'recipientVersion'] as const;

/**
 * The per-account stream's changes to messages (the pair model: read by nothing since protocol 1's
 * `sync` went, written by nothing since 0022; the contract step drops it): one row per account a
 * change concerned, at that account's next seq (users.last_seq, shared with the messages it sent
 * and received). `state` is the message's resulting state as that account saw it.
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
    // One row per (account, seq).
    primaryKey({ columns: [table.userId, table.seq] }),
    check('message_events_kind_check', sql`${table.kind} in ('read', 'seen', 'reaction', 'edit', 'unsend', 'hide')`),
  ],
);
