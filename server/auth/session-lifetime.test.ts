import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSyncResult, Ack, AuthorizeResponse } from '../../lib/contract';
import { savePushSubscription } from '../db/push-subscriptions';
import { pushSubscriptions, sessions, users } from '../db/schema';
import { SESSION_ENDED_MSG } from '../realtime/session-check';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { emulatorAdmin, emulatorSignIn } from '../test/emulator';
import { api, authorizeBody, signIn, startTestServer, uniqueProfile, type SignedInUser, type TestServer } from '../test/helpers';
import { connectSocket, emitWithAck, nextEvent } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { createFirebaseVerifier } from './firebase-verifier';
import { DAY_MS } from '../db/session-rules';

const admin = emulatorAdmin();
afterAll(() => admin.close());

const info = (server: TestServer, token: string) => api(server.url, '/accounts/info', { token });
const sessionsOf = (server: TestServer, userId: number) => server.db.select().from(sessions).where(eq(sessions.userId, userId));
const age = (server: TestServer, user: SignedInUser, column: 'last_used_at' | 'created_at', days: number) =>
  server.db.execute(sql`update sessions set ${sql.raw(column)} = now() - make_interval(secs => ${days * 86_400}) where user_id = ${user.user.id}`);

/** A second session of the same Firebase account (another device). */
async function signInAgain(server: TestServer, user: SignedInUser): Promise<string> {
  const response = await api<AuthorizeResponse>(server.url, '/accounts/authorize', {
    method: 'POST',
    json: authorizeBody(user.account, { username: 'Again' }),
  });
  if (response.status !== 200) throw new Error(`authorize failed: ${response.status} ${JSON.stringify(response.body)}`);
  return `Bearer ${response.body.token}`;
}

describe('session lifetimes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { sessions: { idleMs: 2 * DAY_MS, maxMs: 10 * DAY_MS, checkIntervalMs: 300_000 } } });
  });
  afterAll(() => t.close());

  it('ends a session unused for longer than the idle lifetime, on HTTP and at the handshake', async () => {
    const alice = await signIn(t.url, 'Idle Alice');
    await age(t, alice, 'last_used_at', 1.9);
    expect((await info(t, alice.bearer)).status).toBe(200); // and that use counts as using it
    await age(t, alice, 'last_used_at', 2.1);
    const response = await info(t, alice.bearer);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: 'Invalid or expired session token.' });
    await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow('Unauthorized');
  });

  it('keeps a used session alive past the idle lifetime, and ends it at the absolute one', async () => {
    const bob = await signIn(t.url, 'Busy Bob');
    await age(t, bob, 'created_at', 9.9);
    await age(t, bob, 'last_used_at', 1.9);
    expect((await info(t, bob.bearer)).status).toBe(200);
    await age(t, bob, 'created_at', 10.1);
    await age(t, bob, 'last_used_at', 0);
    expect((await info(t, bob.bearer)).status).toBe(401);
    await expect(connectSocket(t.url, bob.bearer)).rejects.toThrow('Unauthorized');
  });
});

describe('Firebase accounts disabled or deleted', () => {
  // Checked on every request and event: the interval's effect is tested below on its own.
  const { t, tabs } = serverWithTabs(() =>
    startConfiguredServer({ captureLogs: true, config: { sessions: { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS, checkIntervalMs: 0 } } }),
  );

  it('ends every session of a disabled account at its next call, and refuses its next handshake; its browsers get no pushes', async () => {
    const carol = await signIn(t.url, 'Carol');
    const otherDevice = await signInAgain(t, carol);
    const [session] = await sessionsOf(t, carol.user.id);
    await savePushSubscription(t.db, { endpoint: 'https://fcm.googleapis.com/fcm/send/carol', p256dh: 'key', auth: 'auth', userId: carol.user.id, sessionId: session!.id });
    await admin.auth.updateUser(carol.account.uid, { disabled: true });

    expect(await info(t, carol.bearer)).toMatchObject({ status: 401, body: { msg: 'Invalid or expired session token.' } });
    expect((await sessionsOf(t, carol.user.id)).map((row) => row.revokedAt)).toEqual([expect.any(Date), expect.any(Date)]);
    await expect(connectSocket(t.url, otherDevice)).rejects.toThrow('Unauthorized');
    expect((await info(t, otherDevice)).status).toBe(401);
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, carol.user.id))).toEqual([]);
  });

  it('ends the sessions of a deleted account', async () => {
    const dan = await signIn(t.url, 'Dan');
    await admin.auth.deleteUser(dan.account.uid);
    await expect(connectSocket(t.url, dan.bearer)).rejects.toThrow('Unauthorized');
    expect((await info(t, dan.bearer)).status).toBe(401);
    expect((await sessionsOf(t, dan.user.id))[0]?.revokedAt).toBeInstanceOf(Date);
  });

  it('refuses to sign in with a token issued before the account was disabled or its tokens revoked', async () => {
    const profile = uniqueProfile('Erin');
    const disabled = await emulatorSignIn(profile);
    await admin.auth.updateUser(disabled.uid, { disabled: true });
    const refused = await api(t.url, '/accounts/authorize', { method: 'POST', json: authorizeBody({ ...disabled, email: profile.email }) });
    expect(refused).toMatchObject({ status: 400, body: { non_field_errors: ['id_token: belongs to a disabled account.'] } });

    const revokedProfile = uniqueProfile('Frank');
    const revoked = await emulatorSignIn(revokedProfile);
    // Firebase compares whole seconds: the revocation must come after the second the token was issued in.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await admin.auth.revokeRefreshTokens(revoked.uid);
    const refusedToo = await api(t.url, '/accounts/authorize', { method: 'POST', json: authorizeBody({ ...revoked, email: revokedProfile.email }) });
    expect(refusedToo).toMatchObject({ status: 400, body: { non_field_errors: ['id_token: has been revoked; sign in again.'] } });
  });

  it('disconnects an open socket at its next event once its account is disabled', async () => {
    const gina = await signIn(t.url, 'Gina');
    const tab = await tabs.open(gina);
    expect(await emitWithAck<Ack<AccountSyncResult>>(tab, 'sync_account', {})).toMatchObject({ data: { items: [] } });

    await admin.auth.updateUser(gina.account.uid, { disabled: true });
    const disconnected = nextEvent<string>(tab, 'disconnect');
    expect(await emitWithAck(tab, 'sync_account', {})).toEqual({ error: { msg: SESSION_ENDED_MSG } });
    expect(await disconnected).toBe('io server disconnect');
    expect(t.logLines.some((line) => line.includes('socket session ended') && line.includes('firebase account disabled or deleted'))).toBe(true);
  });

  it('disconnects an open socket whose account was deactivated from outside the server, or whose session expired', async () => {
    const hal = await signIn(t.url, 'Hal');
    const tab = await tabs.open(hal);
    // What a moderation command does: straight in the database, no socket room to close.
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, hal.user.id));
    const disconnected = nextEvent<string>(tab, 'disconnect');
    expect(await emitWithAck(tab, 'sync_account', {})).toEqual({ error: { msg: SESSION_ENDED_MSG } });
    expect(await disconnected).toBe('io server disconnect');

    const ivy = await signIn(t.url, 'Ivy');
    const ivyTab = await tabs.open(ivy);
    await age(t, ivy, 'last_used_at', 31);
    expect(await emitWithAck(ivyTab, 'sync_account', {})).toEqual({ error: { msg: SESSION_ENDED_MSG } });
  });

});

describe('sockets that only listen', () => {
  const { t, tabs } = serverWithTabs(() =>
    startTestServer({ config: { sessions: { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS, checkIntervalMs: 1_000 } } }),
  );

  it('are checked by a sweep and disconnected once their session is over, without sending anything', async () => {
    const jo = await signIn(t.url, 'Jo');
    const tab = await tabs.open(jo);
    const disconnected = nextEvent<string>(tab, 'disconnect', 10_000);
    await t.db.execute(sql`update sessions set revoked_at = now() where user_id = ${jo.user.id}`);
    expect(await disconnected).toBe('io server disconnect');
  });
});

describe('the Firebase lookup interval', () => {
  let t: ConfiguredTestServer;
  let lookups = 0;
  let failing = false;
  beforeAll(async () => {
    const real = createFirebaseVerifier({ projectId: 'demo-parley', authEmulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST });
    t = await startConfiguredServer({
      captureLogs: true,
      config: { sessions: { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS, checkIntervalMs: 300_000 } },
      // The real verifier, counted; and made to fail like an unreachable Firebase on demand.
      verifier: {
        verifyIdToken: (idToken) => real.verifyIdToken(idToken),
        accountStatus: (uid) => {
          lookups += 1;
          return failing ? Promise.reject(Object.assign(new Error('getaddrinfo EAI_AGAIN identitytoolkit.googleapis.com'), { code: 'EAI_AGAIN' })) : real.accountStatus(uid);
        },
        close: () => real.close!(),
      },
    });
  });
  afterAll(() => t.close());

  it('looks an account up at most once per interval, remembered in the database for every node', async () => {
    const kim = await signIn(t.url, 'Kim');
    const before = lookups;
    await admin.auth.updateUser(kim.account.uid, { disabled: true });
    // Sign-in has just vouched for the account: within the interval nobody asks again.
    expect((await info(t, kim.bearer)).status).toBe(200);
    expect((await info(t, kim.bearer)).status).toBe(200);
    expect(lookups).toBe(before);
    // Five minutes later, as another node would see it too: the next call looks it up, once.
    await t.db.execute(sql`update users set firebase_checked_at = now() - interval '301 seconds' where id = ${kim.user.id}`);
    expect((await info(t, kim.bearer)).status).toBe(401);
    expect(lookups).toBe(before + 1);
  });

  it('keeps sessions during a Firebase outage, and says so in the log', async () => {
    const lee = await signIn(t.url, 'Lee');
    await t.db.execute(sql`update users set firebase_checked_at = now() - interval '301 seconds' where id = ${lee.user.id}`);
    failing = true;
    try {
      expect((await info(t, lee.bearer)).status).toBe(200);
    } finally {
      failing = false;
    }
    const warning = t.logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } }).find((line) => line.msg.startsWith('firebase account lookup failed'));
    expect(warning).toMatchObject({ level: 40, err: { message: expect.stringContaining('EAI_AGAIN') } });
    // The failed lookup counts as this interval's: Firebase is not asked again on every call.
    const before = lookups;
    expect((await info(t, lee.bearer)).status).toBe(200);
    expect(lookups).toBe(before);
  });
});
