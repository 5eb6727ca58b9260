// The operators' command against both databases it supports: the embedded PGlite in DATA_DIR and
// Postgres at DATABASE_URL (a throwaway cluster, or TEST_DATABASE_URL when given).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../testing/postgres';
import { insertMessage } from '../../testing/database';
import { openDatabase } from '../db/engine/open-database';
import { savePushSubscription } from '../db/push-subscriptions';
import { createReport } from '../db/reports';
import { pushSubscriptions, users } from '../db/schema';
import { createSession } from '../db/sessions';
import { upsertUserFromFirebase } from '../db/users';
import { runModeration, USAGE } from './moderation-cli';

let dir: string;
let postgres: ThrowawayPostgres | null = null;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-moderation-'));
  if (!process.env.TEST_DATABASE_URL) postgres = await startPostgres(path.join(dir, 'pg'));
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function run(env: DbEnv, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runModeration(args, { out: (line) => out.push(line), err: (line) => err.push(line), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type DbEnv = { DATA_DIR?: string; DATABASE_URL?: string };
const backends: [string, () => DbEnv][] = [
  ['PGlite (DATA_DIR)', () => ({ DATA_DIR: path.join(dir, 'data') })],
  ['Postgres (DATABASE_URL)', () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL ?? postgres!.url })],
];

describe.each(backends)('npm run moderation on %s', (_name, envOf) => {
  // Each command opens the database anew, as the real command does: on PGlite that is a few
  // seconds apiece (it starts an embedded Postgres and checks its migrations), ten times over.
  it('lists, shows and resolves reports, and deactivates a user', { timeout: 180_000 }, async () => {
    const env = envOf();
    const tag = Math.random().toString(36).slice(2);
    // Arrange through the product's own queries, then close: PGlite admits one process at a time.
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    const profile = (name: string) => ({ firebaseUid: `${name}-${tag}`, username: name, email: null, avatar: null, socialType: 'google' });
    const reporter = await upsertUserFromFirebase(database.db, profile('Reporter'));
    const spammer = await upsertUserFromFirebase(database.db, profile('Spammer'));
    const message = await insertMessage(database.db, { senderId: spammer.id, recipientId: reporter.id, clientId: crypto.randomUUID(), text: 'cheap pills' });
    const report = await createReport(database.db, { reporterId: reporter.id, messageId: message.message.id, reason: 'spam', details: 'again' });
    const { sessionId } = await createSession(database.db, spammer.id);
    await savePushSubscription(database.db, { endpoint: `https://fcm.googleapis.com/fcm/send/${tag}`, p256dh: 'key', auth: 'auth', userId: spammer.id, sessionId });
    await database.close();

    const listed = await run(env, 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`#${report!.id}  `);
    expect(listed.out).toContain(`spam  message ${message.message.id} from Spammer [user ${spammer.id}]  by Reporter [user ${reporter.id}]`);

    const shown = await run(env, 'show', String(report!.id));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('text:      "cheap pills"');
    expect(shown.out).toContain('details:   again');
    expect(shown.out).toContain('status:    open');

    expect(await run(env, 'resolve', String(report!.id))).toMatchObject({ code: 0, out: `Report #${report!.id} resolved.` });
    expect((await run(env, 'list')).out).not.toContain(`#${report!.id}  `);
    expect((await run(env, 'list', '--all')).out).toMatch(new RegExp(`#${report!.id} .*\\(resolved `));

    expect(await run(env, 'deactivate', String(spammer.id))).toMatchObject({ code: 0, out: `User ${spammer.id} (Spammer) deactivated.` });
    const reopened = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    const [row] = await reopened.db.select({ active: users.isActive }).from(users).where(eq(users.id, spammer.id));
    // As when an account deactivates itself: none of its browsers is pushed to any more.
    const subscriptions = await reopened.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, spammer.id));
    await reopened.close();
    expect(row).toEqual({ active: false });
    expect(subscriptions).toEqual([]);

    expect(await run(env, 'show', '999999')).toMatchObject({ code: 1, err: 'No report #999999.' });
    expect(await run(env, 'deactivate', '999999')).toMatchObject({ code: 1, err: 'No user 999999.' });
  });
});

describe('npm run moderation usage', () => {
  it('explains itself, and refuses unknown commands and missing ids before touching a database', async () => {
    const nowhere = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    expect(await run(nowhere, 'help')).toMatchObject({ code: 0, out: USAGE });
    expect(USAGE).toContain('PGlite admits one process at a time: stop the server first');
    expect((await run(nowhere)).code).toBe(2);
    expect((await run(nowhere, 'ban', '3')).code).toBe(2);
    expect((await run(nowhere, 'show', 'abc')).code).toBe(2);
    expect((await run(nowhere, 'resolve')).code).toBe(2);
    expect((await run(nowhere, 'list', '--everything')).code).toBe(2);
  });

  it('refuses ids past what the database holds, and extra arguments, before touching a database', async () => {
    const nowhere = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    expect(await run(nowhere, 'show', '9999999999')).toMatchObject({ code: 2, err: expect.stringMatching(/^show needs an id \(a whole number from 1 to 2147483647\)\./) });
    expect(await run(nowhere, 'resolve', '2147483648')).toMatchObject({ code: 2, err: expect.stringMatching(/^resolve needs an id/) });
    expect(await run(nowhere, 'show', '3', '4')).toMatchObject({ code: 2, err: expect.stringMatching(/^show takes one id; unexpected: 4\./) });
    expect(await run(nowhere, 'deactivate', '3', '--force')).toMatchObject({ code: 2 });
    expect(await run(nowhere, 'list', '--all', 'now')).toMatchObject({ code: 2, err: expect.stringMatching(/^list does not take now\./) });
    expect(await run(nowhere, 'list', '--page', '0')).toMatchObject({ code: 2 });
    expect(await run(nowhere, 'list', '--sort', 'loudest')).toMatchObject({ code: 2 });
  });
});

// On Postgres: the same SQL as PGlite, without a PGlite start for every command.
describe('npm run moderation against a flood of reports (Postgres)', () => {
  const postgresEnv = () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL ?? postgres!.url });

  it('pages, sorts by newest and groups by person, so a report filed after a flood is found', { timeout: 180_000 }, async () => {
    const env = postgresEnv();
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL });
    const profile = (name: string) => ({ firebaseUid: `${name}-${crypto.randomUUID()}`, username: name, email: null, avatar: null, socialType: 'google' });
    const target = await upsertUserFromFirebase(database.db, profile('Target'));
    const flooder = await upsertUserFromFirebase(database.db, profile('Flooder'));
    // One account filing 286 times is one report; 60 accounts filing once are 60.
    const filed = [];
    for (let i = 0; i < 286; i++) filed.push(await createReport(database.db, { reporterId: flooder.id, userId: target.id, reason: 'spam', details: i < 2 ? `flood ${i}` : null }));
    expect(new Set(filed.map((report) => report!.id)).size).toBe(1);
    for (let i = 0; i < 60; i++) {
      const sock = await upsertUserFromFirebase(database.db, profile(`Sock${i}`));
      await createReport(database.db, { reporterId: sock.id, userId: target.id, reason: 'spam', details: null });
    }
    const victim = await upsertUserFromFirebase(database.db, profile('Victim'));
    const abuser = await upsertUserFromFirebase(database.db, profile('Abuser'));
    const genuine = await createReport(database.db, { reporterId: victim.id, userId: abuser.id, reason: 'harassment', details: 'real' });
    await database.close();

    const oldest = await run(env, 'list');
    expect(oldest.out.split('\n').filter((line) => line.startsWith('#'))).toHaveLength(50);
    expect(oldest.out).toContain(`Flooder [user ${flooder.id}]  ×286, last `);
    expect(oldest.out).not.toContain(`#${genuine!.id}  `);
    const [, pages] = /Page 1 of (\d+) \(\d+ reports\): npm run moderation -- list --page 2 for the next\.$/.exec(oldest.out) ?? [];
    expect(Number(pages)).toBeGreaterThanOrEqual(2);
    expect((await run(env, 'list', '--page', pages!)).out).toContain(`#${genuine!.id}  `);
    expect((await run(env, 'list', '--sort', 'newest')).out.split('\n')[0]).toMatch(new RegExp(`^#${genuine!.id}  `));
    // By person: the target's 61 reports together, then the other's.
    const byPerson = (await run(env, 'list', '--sort', 'target')).out.split('\n').filter((line) => line.startsWith('#'));
    const targetRows = byPerson.flatMap((line, index) => (line.includes(`person Target [user ${target.id}]`) ? [index] : []));
    expect(targetRows.at(-1)! - targetRows[0]!).toBe(targetRows.length - 1);
    const grouped = (await run(env, 'list', '--by-target')).out.split('\n');
    expect(grouped[0]).toMatch(new RegExp(`^Target \\[user ${target.id}\\]  61 reports, 346 filings, last `));
    expect(grouped).toContainEqual(expect.stringMatching(new RegExp(`^Abuser \\[user ${abuser.id}\\]  1 report, 1 filing, last `)));
    const flood = await run(env, 'show', String(filed[0]!.id));
    expect(flood.out).toContain('filings:   286');
    expect(flood.out).toContain('details:   flood 0\\n\\nflood 1');
  });

  it('prints what users wrote with control characters escaped', { timeout: 180_000 }, async () => {
    const env = postgresEnv();
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL });
    const profile = (name: string) => ({ firebaseUid: crypto.randomUUID(), username: name, email: null, avatar: null, socialType: 'google' });
    const reporter = await upsertUserFromFirebase(database.db, profile('Eve\u001b]0;owned\u0007'));
    const sender = await upsertUserFromFirebase(database.db, profile('Mallory\u202e'));
    const message = await insertMessage(database.db, { senderId: sender.id, recipientId: reporter.id, clientId: crypto.randomUUID(), text: 'hi\u009b2J' });
    // Clears the screen, forges a status line, hides what follows.
    const details = '\u001b[2J\r\n  status:    resolved\u001b[8mhidden';
    const report = await createReport(database.db, { reporterId: reporter.id, messageId: message.message.id, reason: 'spam', details });
    await database.close();

    const shown = await run(env, 'show', String(report!.id));
    const listed = await run(env, 'list', '--sort', 'newest');
    for (const out of [shown.out, listed.out]) expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(shown.out).toContain('details:   \\u{1b}[2J\\r\\n  status:    resolved\\u{1b}[8mhidden');
    expect(shown.out).toContain('text:      "hi\\u{9b}2J"');
    expect(shown.out).toContain(`by Eve\\u{1b}]0;owned\\u{7} [user ${reporter.id}]`);
    expect(shown.out).toContain(`Mallory\\u{202e} [user ${sender.id}]`);
    expect(shown.out.split('\n').filter((line) => line.startsWith('  status:'))).toEqual(['  status:    open']);
  });
});
