// What keeps people safe from each other: blocks, and reports to the moderators.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, createdAtMs } from './columns';
import { users } from './people';
import { messages } from './messages';

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
    /** How many times the reporter filed it: later filings against the same person while it is open add to it. */
    filings: integer('filings').notNull().default(1),
    lastFiledAt: timestamp('last_filed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('reports_reporter_idx').on(table.reporterId),
    // One open report per reporter and reported person (db/reports.ts adds later filings to it).
    uniqueIndex('reports_open_pair_idx').on(table.reporterId, table.reportedUserId).where(sql`${table.resolvedAt} is null`),
    // The moderators' queue by person.
    index('reports_reported_idx').on(table.reportedUserId),
    // REPORT_REASONS (lib/contract/safety.ts).
    check('reports_reason_check', sql`${table.reason} in ('spam', 'harassment', 'inappropriate', 'other')`),
    // The moderators' queue: open reports, oldest first.
    index('reports_open_idx').on(table.id).where(sql`${table.resolvedAt} is null`),
  ],
);
