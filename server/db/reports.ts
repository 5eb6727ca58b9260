import { and, asc, count, countDistinct, desc, eq, isNull, ne, or, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REPORT_DETAILS_MAX, type ReportReason } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { messages, reports, users, type ReportRow } from './schema';

export interface NewReport {
  reporterId: number;
  reason: ReportReason;
  details: string | null;
  /** A message the reporter received; or… */
  messageId?: number;
  /** …a person. */
  userId?: number;
}

/**
 * The message reached `userId`: they are a member of its conversation and it is inside what they
 * may read (docs/design/conversations.md 2.2), by the member row's primary key.
 */
const receivedBy = (userId: number) => sql`exists (select 1 from conversation_members rm
  where rm.conversation_id = ${messages.conversationId} and rm.user_id = ${userId}
    and ${messages.seq} > rm.joined_seq and (rm.left_seq is null or ${messages.seq} <= rm.left_seq))`;

// What a report's details may grow to as filings add theirs (each is at most REPORT_DETAILS_MAX).
const MAX_COMBINED_DETAILS = 4 * REPORT_DETAILS_MAX;

/**
 * Files a report; null when what it names is not the reporter's to report: a message they did not
 * receive (their own, someone else's, none) or an unknown person, answered alike (404) so ids
 * cannot be probed. A reported message's text is copied into the report as it is now.
 * While the reporter has an open report of the same person, this filing adds to it instead: one
 * more filing, its details appended (to MAX_COMBINED_DETAILS), its message kept if the report had none.
 */
export async function createReport(db: Db, report: NewReport): Promise<ReportRow | null> {
  let target: { reportedUserId: number; messageId: number | null; messageText: string | null } | null = null;
  if (report.messageId !== undefined) {
    const [message] = await db
      .select({ senderId: messages.senderId, text: messages.text })
      .from(messages)
      .where(and(eq(messages.id, report.messageId), ne(messages.senderId, report.reporterId), receivedBy(report.reporterId)))
      .limit(1);
    if (message) target = { reportedUserId: message.senderId, messageId: report.messageId, messageText: message.text };
  } else if (report.userId !== undefined) {
    // Deleted accounts can still be reported (what they sent is still there); deactivated ones are invisible.
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, report.userId), or(eq(users.isActive, true), isNotNull(users.deletedAt))))
      .limit(1);
    if (user) target = { reportedUserId: user.id, messageId: null, messageText: null };
  }
  if (!target) return null;
  const [row] = await db
    .insert(reports)
    .values({ reporterId: report.reporterId, reason: report.reason, details: report.details, ...target })
    .onConflictDoUpdate({
      target: [reports.reporterId, reports.reportedUserId],
      targetWhere: sql`${reports.resolvedAt} is null`,
      set: {
        filings: sql`${reports.filings} + 1`,
        lastFiledAt: sql`now()`,
        details: sql`left(concat_ws(E'\n\n', ${reports.details}, excluded.details), ${MAX_COMBINED_DETAILS})`,
        messageId: sql`coalesce(${reports.messageId}, excluded.message_id)`,
        messageText: sql`case when ${reports.messageId} is null then excluded.message_text else ${reports.messageText} end`,
      },
    })
    .returning();
  if (!row) throw new Error('report insert returned no row');
  return row;
}

const reporter = alias(users, 'reporter');
const reported = alias(users, 'reported');

export interface ReportView extends ReportRow {
  reporterName: string | null;
  reportedName: string | null;
  reportedActive: boolean;
}

const reportView = {
  report: reports,
  reporterName: reporter.username,
  reportedName: reported.username,
  reportedActive: reported.isActive,
};

function toView(row: { report: ReportRow; reporterName: string | null; reportedName: string | null; reportedActive: boolean }): ReportView {
  return { ...row.report, reporterName: row.reporterName, reportedName: row.reportedName, reportedActive: row.reportedActive };
}

export type ReportOrder = 'oldest' | 'newest' | 'target';

export interface ReportListOptions {
  includeResolved?: boolean;
  /** oldest: first filed first; newest: last filed first; target: by reported person, then newest. */
  order?: ReportOrder;
  /** 1-based. */
  page?: number;
  perPage?: number;
}

const openOnly = (includeResolved: boolean) => (includeResolved ? undefined : isNull(reports.resolvedAt));

const ORDERS = {
  oldest: [asc(reports.id)],
  newest: [desc(reports.lastFiledAt), desc(reports.id)],
  target: [asc(reports.reportedUserId), desc(reports.lastFiledAt), desc(reports.id)],
} satisfies Record<ReportOrder, unknown[]>;

/** The moderators' queue, a page at a time, with how many reports there are in all. */
export async function listReports(db: Db, { includeResolved = false, order = 'oldest', page = 1, perPage = 50 }: ReportListOptions = {}): Promise<{ reports: ReportView[]; total: number }> {
  const rows = await db
    .select(reportView)
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .innerJoin(reported, eq(reported.id, reports.reportedUserId))
    .where(openOnly(includeResolved))
    .orderBy(...ORDERS[order])
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [counted] = await db.select({ total: count() }).from(reports).where(openOnly(includeResolved));
  return { reports: rows.map(toView), total: counted?.total ?? 0 };
}

export interface ReportTarget {
  userId: number;
  name: string | null;
  active: boolean;
  reports: number;
  filings: number;
  lastFiledAt: Date;
}

/** The queue grouped by reported person: most reporters first, then the most recently reported. */
export async function listReportTargets(db: Db, { includeResolved = false, page = 1, perPage = 50 }: Omit<ReportListOptions, 'order'> = {}): Promise<{ targets: ReportTarget[]; total: number }> {
  const reportCount = count(reports.id);
  const lastFiledAt = sql<Date>`max(${reports.lastFiledAt})`.mapWith((value: string | Date) => new Date(value));
  const rows = await db
    .select({
      userId: reports.reportedUserId,
      name: reported.username,
      active: reported.isActive,
      reports: reportCount,
      filings: sql<number>`sum(${reports.filings})`.mapWith(Number),
      lastFiledAt,
    })
    .from(reports)
    .innerJoin(reported, eq(reported.id, reports.reportedUserId))
    .where(openOnly(includeResolved))
    .groupBy(reports.reportedUserId, reported.username, reported.isActive)
    .orderBy(desc(reportCount), desc(lastFiledAt), asc(reports.reportedUserId))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [counted] = await db.select({ total: countDistinct(reports.reportedUserId) }).from(reports).where(openOnly(includeResolved));
  return { targets: rows, total: counted?.total ?? 0 };
}

export async function findReport(db: Db, id: number): Promise<ReportView | null> {
  const [row] = await db
    .select(reportView)
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .innerJoin(reported, eq(reported.id, reports.reportedUserId))
    .where(eq(reports.id, id))
    .limit(1);
  return row ? toView(row) : null;
}

/** Marks the report resolved (once: a second call keeps the first time). Null for an unknown id. */
export async function resolveReport(db: Db, id: number): Promise<ReportRow | null> {
  const [row] = await db
    .update(reports)
    .set({ resolvedAt: sql`coalesce(${reports.resolvedAt}, now())` })
    .where(eq(reports.id, id))
    .returning();
  return row ?? null;
}
