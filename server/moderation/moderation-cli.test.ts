// The operators' command against both databases it supports: the embedded PGlite in DATA_DIR and
// Postgres at DATABASE_URL (a throwaway cluster, or TEST_DATABASE_URL when given).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../testing/postgres';
import { insertMessage } from '../../testing/database';
import { openDatabase } from '../db/open-database';
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
});
