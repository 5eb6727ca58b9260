import { and, asc, eq, isNull, or, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReportReason } from '../../lib/contract';
import type { Db } from './open-database';
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
 * Files a report; null when what it names is not the reporter's to report: a message they did not
 * receive (their own, someone else's, none) or an unknown person, answered alike (404) so ids
 * cannot be probed. A reported message's text is copied into the report as it is now.
 */
export async function createReport(db: Db, report: NewReport): Promise<ReportRow | null> {
  let target: { reportedUserId: number; messageId: number | null; messageText: string | null } | null = null;
  if (report.messageId !== undefined) {
    const [message] = await db
      .select({ senderId: messages.senderId, text: messages.text })
      .from(messages)
      .where(and(eq(messages.id, report.messageId), eq(messages.recipientId, report.reporterId)))
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

/** The moderators' queue: open reports oldest first (all of them with `includeResolved`). */
export async function listReports(db: Db, { includeResolved = false, limit = 100 } = {}): Promise<ReportView[]> {
  const rows = await db
    .select(reportView)
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .innerJoin(reported, eq(reported.id, reports.reportedUserId))
    .where(includeResolved ? undefined : isNull(reports.resolvedAt))
    .orderBy(asc(reports.id))
    .limit(limit);
  return rows.map(toView);
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
