// `npm run moderation -- <command>`: the operators' view of reports, and deactivation. Works on the
// deployment's database: Postgres with DATABASE_URL, else the embedded PGlite in DATA_DIR.
import { loadDatabaseConfig } from '../config';
import { openDatabase, type Database } from '../db/open-database';
import { findReport, listReports, resolveReport, type ReportView } from '../db/reports';
import { deleteUserPushSubscriptions } from '../db/push-subscriptions';
import { setUserActive } from '../db/users';

export const USAGE = `Usage: npm run moderation -- <command>

  list [--all]       open reports, oldest first (--all: resolved ones too)
  show <report>      one report in full, with the reported message's text as it was reported
  resolve <report>   marks the report resolved
  deactivate <user>  deactivates the account (user id): it can no longer sign in or be found;
                     sockets it has open are dropped at the server's next session check

Database: DATABASE_URL (Postgres) when set, else the embedded PGlite in DATA_DIR (default .data).
The embedded PGlite admits one process at a time: stop the server first (with Postgres the
command runs beside the servers). Run npm run build first: the command runs from dist/server.`;

export interface ModerationIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: Record<string, string | undefined>;
}

const positiveInt = (value: string | undefined) => (value !== undefined && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null);

function summary(report: ReportView): string {
  const target = report.messageId !== null ? `message ${report.messageId} from` : 'person';
  const status = report.resolvedAt ? ` (resolved ${report.resolvedAt.toISOString()})` : '';
  return `#${report.id}  ${report.createdAt.toISOString()}  ${report.reason}  ${target} ${describe(report.reportedUserId, report.reportedName)}  by ${describe(report.reporterId, report.reporterName)}${status}`;
}

const describe = (id: number, name: string | null) => `${name ?? '(no name)'} [user ${id}]`;

function details(report: ReportView): string[] {
  return [
    `Report #${report.id}`,
    `  filed:     ${report.createdAt.toISOString()} by ${describe(report.reporterId, report.reporterName)}`,
    `  reported:  ${describe(report.reportedUserId, report.reportedName)}${report.reportedActive ? '' : ' (inactive)'}`,
    `  reason:    ${report.reason}`,
    `  details:   ${report.details ?? '(none)'}`,
    ...(report.messageText !== null ? [`  message:   ${report.messageId ?? '(since deleted)'}`, `  text:      ${JSON.stringify(report.messageText)}`] : []),
    `  status:    ${report.resolvedAt ? `resolved ${report.resolvedAt.toISOString()}` : 'open'}`,
  ];
}

/** Runs one command; resolves with the exit code (0 done, 1 not found or failed, 2 usage). */
export async function runModeration(args: readonly string[], io: ModerationIo): Promise<number> {
  const [command, argument] = args;
  if (command === undefined || command === 'help' || command === '--help') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  const known = ['list', 'show', 'resolve', 'deactivate'];
  if (!known.includes(command)) {
    io.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const id = positiveInt(argument);
  if (command !== 'list' && id === null) {
    io.err(`${command} needs an id (a positive whole number).\n\n${USAGE}`);
    return 2;
  }
  if (command === 'list' && argument !== undefined && argument !== '--all') {
    io.err(`list takes only --all.\n\n${USAGE}`);
    return 2;
  }

  const { databaseUrl, dataDir } = loadDatabaseConfig(io.env ?? process.env);
  let database: Database;
  try {
    // Postgres: the deployment migrates (npm run db:migrate); a pending migration is refused, not applied.
    database = await openDatabase({ databaseUrl, dataDir, migrateOnStart: false });
  } catch (error) {
    io.err(`Cannot open the database: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const { db } = database;
    switch (command) {
      case 'list': {
        const reports = await listReports(db, { includeResolved: argument === '--all' });
        if (reports.length === 0) io.out(argument === '--all' ? 'No reports.' : 'No open reports.');
        for (const report of reports) io.out(summary(report));
        return 0;
      }
      case 'show': {
        const report = await findReport(db, id!);
        if (!report) return notFound(io, `No report #${id}.`);
        for (const line of details(report)) io.out(line);
        return 0;
      }
      case 'resolve': {
        const report = await resolveReport(db, id!);
        if (!report) return notFound(io, `No report #${id}.`);
        io.out(`Report #${id} resolved.`);
        return 0;
      }
      default: {
        const user = await setUserActive(db, id!, false);
        if (!user) return notFound(io, `No user ${id}.`);
        // As when the account deactivates itself: none of its browsers gets a push any more.
        await deleteUserPushSubscriptions(db, id!);
        io.out(`User ${id} (${user.username ?? 'no name'}) deactivated.`);
        return 0;
      }
    }
  } finally {
    await database.close();
  }
}

function notFound(io: ModerationIo, message: string): number {
  io.err(message);
  return 1;
}
