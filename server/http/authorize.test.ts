import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizeResponse } from '../../lib/contract';
import { users } from '../db/schema';
import { setUserActive } from '../db/users';
import { api, authorizeBody, emulatorSignIn, startTestServer, uniqueProfile, type TestServer } from '../test/helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const authorize = (json: unknown) => api<AuthorizeResponse>(t.url, '/accounts/authorize', { method: 'POST', json });

/** The emulator token with its claims edited; emulator tokens are unsigned, so it stays "valid" otherwise. */
function withClaims(idToken: string, claims: Record<string, unknown>): string {
  const [header, payload] = idToken.split('.');
  const decoded = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...decoded, ...claims })).toString('base64url')}.`;
}

describe('POST /api/accounts/authorize', () => {
  it('signs in: returns a session token and the user', async () => {
    const account = await emulatorSignIn(uniqueProfile('Alice'));
    const response = await authorize(authorizeBody(account, { username: 'Alice', email: 'alice@example.com' }));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: expect.any(Number),
        username: 'Alice',
        email: 'alice@example.com',
        avatar: 'https://example.com/avatar.png',
        language: 'en',
        is_active: true,
      },
    });
    const info = await api(t.url, '/accounts/info', { token: `Bearer ${response.body.token}` });
    expect(info.status).toBe(200);
    expect(info.body).toEqual(response.body.user);
  });

  it('updates the same user on the next sign-in and keeps their language', async () => {
    const profile = uniqueProfile('Bob');
    const first = await authorize(authorizeBody(await emulatorSignIn(profile), { username: 'Bob' }));
    await t.db.update(users).set({ language: 'fr' }).where(eq(users.id, first.body.user.id));

    const again = await emulatorSignIn(profile);
    const second = await authorize(
      authorizeBody(again, { username: 'Robert', email: null, avatar: 'https://example.com/new.png', social_type: 'github' }),
    );

    expect(second.status).toBe(200);
    expect(second.body.token).not.toBe(first.body.token);
    expect(second.body.user).toEqual({
      id: first.body.user.id,
      username: 'Robert',
      email: null,
      avatar: 'https://example.com/new.png',
      language: 'fr',
      is_active: true,
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, first.body.user.id));
    expect(row?.socialType).toBe('github');
  });

  it('accepts the optional fields left out', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const response = await authorize({ firebase_id: account.uid, social_type: 'google', id_token: account.idToken });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: null, email: null, avatar: null });
  });

  it('refuses a deactivated account with 403', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const first = await authorize(authorizeBody(account));
    await setUserActive(t.db, first.body.user.id, false);

    const response = await authorize(authorizeBody(account));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ msg: 'This account has been deactivated.' });
  });

  it('rejects a garbage id_token with 401', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const response = await authorize(authorizeBody(account, { id_token: 'not-a-jwt' }));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: 'The ID token is invalid.' });
  });

  it('rejects an expired id_token with 401', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = withClaims(account.idToken, { iat: past, auth_time: past, exp: past + 3600 });
    const response = await authorize(authorizeBody(account, { id_token: expired }));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: 'The ID token has expired.' });
  });

  it('rejects an id_token for another project with 401', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const foreign = withClaims(account.idToken, { aud: 'someone-else' });
    const response = await authorize(authorizeBody(account, { id_token: foreign }));
    expect(response.status).toBe(401);
  });

  it('rejects an id_token that belongs to a different firebase_id with 401', async () => {
    const mallory = await emulatorSignIn(uniqueProfile('Mallory'));
    const victim = await emulatorSignIn(uniqueProfile('Victim'));
    const response = await authorize(authorizeBody(mallory, { firebase_id: victim.uid }));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: 'The ID token does not belong to this firebase_id.' });
    const rows = await t.db.select().from(users).where(eq(users.firebaseUid, victim.uid));
    expect(rows).toHaveLength(0);
  });
});
