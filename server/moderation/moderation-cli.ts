// `npm run moderation -- <command>`: the operators' view of reports, and deactivation. Works on the
// deployment's database: Postgres with DATABASE_URL, else the embedded PGlite in DATA_DIR.
import { loadDatabaseConfig } from '../config';
import { openDatabase, type Database } from '../db/engine/open-database';
import { findReport, listReports, listReportTargets, resolveReport, type ReportOrder } from '../db/reports';
import { deleteUserPushSubscriptions } from '../db/push-subscriptions';
import { setUserActive } from '../db/users';
import { details, pageFooter, summary, targetSummary, visible } from './moderation-format';

export const USAGE = `Usage: npm run moderation -- <command>

  list [--all] [--sort oldest|newest|target] [--by-target] [--page N]
                     open reports (--all: resolved ones too), 50 a page; --sort oldest (the
                     default) by when first filed, newest by when last filed, target by the
                     reported person; --by-target: one line per reported person, most reports first
  show <report>      one report in full, with the reported message's text as it was reported
  resolve <report>   marks the report resolved
  deactivate <user>  deactivates the account (user id): it can no longer sign in or be found;
                     sockets it has open are dropped at the server's next session check

What users wrote (names, details, message text) is printed with control characters escaped
(\\u{1b} for ESC), so nothing in a report can act on the terminal.

Database: DATABASE_URL (Postgres) when set, else the embedded PGlite in DATA_DIR (default .data).
The embedded PGlite admits one process at a time: stop the server first (with Postgres the
command runs beside the servers). Run npm run build first: the command runs from dist/server.`;

export interface ModerationIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: Record<string, string | undefined>;
}

const PER_PAGE = 50;
// Ids are Postgres integers: anything larger names nothing, and must not reach a query.
const MAX_ID = 2_147_483_647;
const positiveInt = (value: string | undefined) => {
  const number = value !== undefined && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
  return number !== null && number <= MAX_ID ? number : null;
};

type Command =
  | { command: 'list'; includeResolved: boolean; order: ReportOrder; byTarget: boolean; page: number }
  | { command: 'show' | 'resolve' | 'deactivate'; id: number };

/** The command line as a command, or what is wrong with it. */
function parse(args: readonly string[]): Command | { usage: string } {
  const [command, ...rest] = args;
  if (command === 'show' || command === 'resolve' || command === 'deactivate') {
    const id = positiveInt(rest[0]);
    if (id === null) return { usage: `${command} needs an id (a whole number from 1 to ${MAX_ID}).` };
    if (rest.length > 1) return { usage: `${command} takes one id; unexpected: ${visible(rest.slice(1).join(' '))}.` };
    return { command, id };
  }
  if (command !== 'list') return { usage: `Unknown command "${visible(command ?? '')}".` };
  const list: Extract<Command, { command: 'list' }> = { command, includeResolved: false, order: 'oldest', byTarget: false, page: 1 };
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i];
    if (option === '--all') list.includeResolved = true;
    else if (option === '--by-target') list.byTarget = true;
    else if (option === '--sort' && ['oldest', 'newest', 'target'].includes(rest[i + 1] ?? '')) list.order = rest[++i] as ReportOrder;
    else if (option === '--page' && positiveInt(rest[i + 1]) !== null) list.page = positiveInt(rest[++i])!;
    else return { usage: `list does not take ${visible(option ?? '')}${option === '--sort' || option === '--page' ? ' without a valid value' : ''}.` };
  }
  if (list.byTarget && list.order !== 'oldest') return { usage: 'list --by-target has its own order; leave out --sort.' };
  return list;
}

/** Runs one command; resolves with the exit code (0 done, 1 not found or failed, 2 usage). */
export async function runModeration(args: readonly string[], io: ModerationIo): Promise<number> {
  const [first] = args;
  if (first === undefined || first === 'help' || first === '--help') {
    io.out(USAGE);
    return first === undefined ? 2 : 0;
  }
  const parsed = parse(args);
  if ('usage' in parsed) {
    io.err(`${parsed.usage}\n\n${USAGE}`);
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
    return await run(database.db, parsed, io);
  } finally {
    await database.close();
  }
}

async function run(db: Database['db'], parsed: Command, io: ModerationIo): Promise<number> {
  if (parsed.command === 'list') return list(db, parsed, io);
  const { id } = parsed;
  switch (parsed.command) {
    case 'show': {
      const report = await findReport(db, id);
      if (!report) return notFound(io, `No report #${id}.`);
      for (const line of details(report)) io.out(line);
      return 0;
    }
    case 'resolve': {
      const report = await resolveReport(db, id);
      if (!report) return notFound(io, `No report #${id}.`);
      io.out(`Report #${id} resolved.`);
      return 0;
    }
    default: {
      const user = await setUserActive(db, id, false);
      if (!user) return notFound(io, `No user ${id}.`);
      // As when the account deactivates itself: none of its browsers gets a push any more.
      await deleteUserPushSubscriptions(db, id);
      io.out(`User ${id} (${user.username === null ? 'no name' : visible(user.username)}) deactivated.`);
      return 0;
    }
  }
}

async function list(db: Database['db'], options: Extract<Command, { command: 'list' }>, io: ModerationIo): Promise<number> {
  const { includeResolved, order, byTarget, page } = options;
  const query = { includeResolved, page, perPage: PER_PAGE };
  const again = `npm run moderation -- list${includeResolved ? ' --all' : ''}${byTarget ? ' --by-target' : order === 'oldest' ? '' : ` --sort ${order}`}`;
  const { lines, total } = byTarget
    ? await listReportTargets(db, query).then(({ targets, total }) => ({ lines: targets.map(targetSummary), total }))
    : await listReports(db, { ...query, order }).then(({ reports, total }) => ({ lines: reports.map(summary), total }));
  if (total === 0) io.out(includeResolved ? 'No reports.' : 'No open reports.');
  else if (lines.length === 0) io.out(`No page ${page}: there are ${Math.ceil(total / PER_PAGE)}.`);
  for (const line of lines) io.out(line);
  const footer = pageFooter(page, PER_PAGE, total, byTarget ? 'reported people' : 'reports', again);
  if (footer && lines.length > 0) io.out(footer);
  return 0;
}

function notFound(io: ModerationIo, message: string): number {
  io.err(message);
  return 1;
}
