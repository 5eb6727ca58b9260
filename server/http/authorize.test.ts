import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizeResponse } from '../../lib/contract';
import { users } from '../db/schema';
import { setUserActive } from '../db/users';
import { api, authorizeBody, startTestServer, uniqueProfile, type TestServer } from '../test/helpers';
import { emulatorSignIn, emulatorSignInAnonymously } from '../test/emulator';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const authorize = (json: unknown) => api<AuthorizeResponse>(t.url, '/accounts/authorize', { method: 'POST', json });
const usersWithUid = (uid: string) => t.db.select().from(users).where(eq(users.firebaseUid, uid));

/** The emulator token with its claims edited; emulator tokens are unsigned, so it stays "valid" otherwise. */
function withClaims(idToken: string, claims: Record<string, unknown>): string {
  const [header, payload] = idToken.split('.');
  const decoded = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...decoded, ...claims })).toString('base64url')}.`;
}

describe('POST /api/accounts/authorize', () => {
  it('signs in: returns a session token and the user', async () => {
    const profile = uniqueProfile('Alice');
    const account = await emulatorSignIn(profile);
    const response = await authorize(authorizeBody(account, { username: 'Alice', email: profile.email }));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: expect.any(Number),
        username: 'Alice',
        email: profile.email,
        avatar: 'https://example.com/avatar.png',
        language: 'en',
        is_active: true,
        message_policy: 'everyone',
        show_presence: true,
        notification_preview: 'text',
        notification_sound: true,
        read_receipts: true,
      },
    });
    const info = await api(t.url, '/accounts/info', { token: `Bearer ${response.body.token}` });
    expect(info.status).toBe(200);
    expect(info.body).toEqual(response.body.user);
  });

  it('updates the same user on the next sign-in and keeps their settings and their email', async () => {
    const profile = uniqueProfile('Bob');
    const first = await authorize(authorizeBody(await emulatorSignIn(profile), { username: 'Bob' }));
    await t.db.update(users).set({ language: 'fr', showPresence: false }).where(eq(users.id, first.body.user.id));

    const again = await emulatorSignIn(profile);
    const second = await authorize(
      authorizeBody(again, { username: 'Robert', email: null, avatar: 'https://example.com/new.png', social_type: 'github' }),
    );

    expect(second.status).toBe(200);
    expect(second.body.token).not.toBe(first.body.token);
    expect(second.body.user).toEqual({
      id: first.body.user.id,
      username: 'Robert',
      email: profile.email, // the token's, although the body left it out
      avatar: 'https://example.com/new.png',
      language: 'fr',
      is_active: true,
      message_policy: 'everyone',
      show_presence: false,
      notification_preview: 'text',
      notification_sound: true,
      read_receipts: true,
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, first.body.user.id));
    expect(row?.socialType).toBe('github');
  });

  it('starts a new account in the language its sign-in was shown in; an existing account keeps its own', async () => {
    const profile = uniqueProfile('Dora');
    const first = await authorize(authorizeBody(await emulatorSignIn(profile), { language: 'fr' }));
    expect(first.status).toBe(200);
    expect(first.body.user.language).toBe('fr');

    // The same person later, from a Spanish browser: their account's language stands.
    const again = await authorize(authorizeBody(await emulatorSignIn(profile), { language: 'es' }));
    expect(again.body.user).toMatchObject({ id: first.body.user.id, language: 'fr' });

    // Without one (an older client), a new account starts in English, as before.
    const plain = await authorize(authorizeBody(await emulatorSignIn(uniqueProfile('Emil'))));
    expect(plain.body.user.language).toBe('en');
  });

  it('refuses a language Parley does not have, and stores nothing', async () => {
    const account = await emulatorSignIn(uniqueProfile('Fritz'));
    for (const language of ['de', 'FR', 'fr-FR', '', 7]) {
      const response = await authorize({ ...authorizeBody(account), language });
      expect(response.status, JSON.stringify(language)).toBe(400);
      expect((response.body as unknown as { non_field_errors: string[] }).non_field_errors[0]).toMatch(/^language: /);
    }
    expect(await usersWithUid(account.uid)).toEqual([]);
  });

  it('takes the name and picture from the token when the body leaves them out', async () => {
    const profile = { ...uniqueProfile('Carol'), photoUrl: 'https://example.com/carol.png' };
    const account = await emulatorSignIn(profile);
    const response = await authorize({ firebase_id: account.uid, social_type: 'google', id_token: account.idToken });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'Carol', email: profile.email, avatar: profile.photoUrl });
  });

  it('stores names without bidi overrides or zero-width characters, typed or from the provider', async () => {
    const typed = await emulatorSignIn(uniqueProfile('Ignored'));
    const response = await authorize(authorizeBody(typed, { username: '\u202EMal\u200Blory\u2028  Evil\u2060' }));
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe('Mallory Evil');
    expect((await usersWithUid(typed.uid))[0]?.username).toBe('Mallory Evil');

    const fromProvider = await emulatorSignIn(uniqueProfile('\u200BTrent\u202E'));
    const second = await authorize({ firebase_id: fromProvider.uid, social_type: 'google', id_token: fromProvider.idToken });
    expect(second.body.user.username).toBe('Trent');

    const controls = await authorize(authorizeBody(typed, { username: 'Mallory\nEvil' }));
    expect(controls).toMatchObject({ status: 400, body: { non_field_errors: ['username: Control characters are not allowed.'] } });

    // Nothing visible typed: the provider's name is used, as when the field is left out.
    const blank = await emulatorSignIn(uniqueProfile('Peggy'));
    const third = await authorize(authorizeBody(blank, { username: '\u200B\u3164' }));
    expect(third.body.user.username).toBe('Peggy');
  });

  it('leaves out a provider picture that is not https', async () => {
    const profile = { ...uniqueProfile('Dave'), photoUrl: 'http://example.com/dave.png' };
    const account = await emulatorSignIn(profile);
    const response = await authorize({ firebase_id: account.uid, social_type: 'google', id_token: account.idToken });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'Dave', avatar: null });
  });

  it('refuses an email that is not the signed-in account\'s, and stores nothing', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const response = await authorize(authorizeBody(account, { email: 'someone-else@example.com' }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['email: does not match the signed-in account.'] });
    expect(await usersWithUid(account.uid)).toHaveLength(0);
  });

  it('compares emails case-insensitively and stores the token\'s', async () => {
    const profile = uniqueProfile();
    const account = await emulatorSignIn(profile);
    const response = await authorize(authorizeBody(account, { email: profile.email.toUpperCase() }));
    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe(profile.email);
  });

  it('stores no email for a token without one, whatever the body says', async () => {
    const account = await emulatorSignInAnonymously();
    const response = await authorize(authorizeBody(account, { email: 'made-up@example.com', username: 'Anon' }));
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'Anon', email: null });
    const [row] = await usersWithUid(account.uid);
    expect(row?.email).toBeNull();
  });

  it('refuses a deactivated account with 403', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const first = await authorize(authorizeBody(account));
    await setUserActive(t.db, first.body.user.id, false);

    const response = await authorize(authorizeBody(account));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ msg: 'This account has been deactivated.' });
  });

  // ID-token problems are 400s: the client reads every 401 as "your session ended" and navigates
  // away, which would hide the sign-in error.
  it('rejects a garbage id_token with 400', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const response = await authorize(authorizeBody(account, { id_token: 'not-a-jwt' }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['id_token: is not a valid Firebase ID token for this app.'] });
  });

  it('rejects an expired id_token with 400', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = withClaims(account.idToken, { iat: past, auth_time: past, exp: past + 3600 });
    const response = await authorize(authorizeBody(account, { id_token: expired }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['id_token: has expired; sign in again.'] });
  });

  it('rejects an id_token for another project with 400', async () => {
    const account = await emulatorSignIn(uniqueProfile());
    const foreign = withClaims(account.idToken, { aud: 'someone-else' });
    const response = await authorize(authorizeBody(account, { id_token: foreign }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['id_token: is not a valid Firebase ID token for this app.'] });
  });

  it('rejects an id_token that belongs to a different firebase_id with 400', async () => {
    const mallory = await emulatorSignIn(uniqueProfile('Mallory'));
    const victim = await emulatorSignIn(uniqueProfile('Victim'));
    const response = await authorize(authorizeBody(mallory, { firebase_id: victim.uid, email: null }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['id_token: does not belong to the account in firebase_id.'] });
    expect(await usersWithUid(victim.uid)).toHaveLength(0);
  });
});
