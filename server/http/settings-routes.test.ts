import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizeResponse, User } from '../../lib/contract';
import { setUserActive } from '../db/users';
import { api, authorizeBody, signIn, startTestServer, type TestServer } from '../test/helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const patch = (json: unknown, token?: string) => api<User>(t.url, '/accounts/settings', { method: 'PATCH', json, token });

describe('PATCH /api/accounts/settings', () => {
  it('stores the language and returns the user; accounts/info and the next sign-in keep it', async () => {
    const alice = await signIn(t.url, 'Alice');
    const response = await patch({ language: 'fr' }, alice.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...alice.user, language: 'fr' });
    expect((await api<User>(t.url, '/accounts/info', { token: alice.bearer })).body.language).toBe('fr');
    const again = await api<AuthorizeResponse>(t.url, '/accounts/authorize', {
      method: 'POST',
      json: authorizeBody(alice.account, { username: 'Alice' }),
    });
    expect(again.body.user.language).toBe('fr');
  });

  it('stores show_presence alone or with the language; the user object carries it, on by default', async () => {
    const alice = await signIn(t.url, 'Alice');
    expect(alice.user.show_presence).toBe(true);
    const hidden = await patch({ show_presence: false }, alice.bearer);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ ...alice.user, show_presence: false });
    expect((await api<User>(t.url, '/accounts/info', { token: alice.bearer })).body).toMatchObject({ show_presence: false, language: 'en' });
    const both = await patch({ language: 'es', show_presence: true }, alice.bearer);
    expect(both.body).toEqual({ ...alice.user, language: 'es', show_presence: true });
  });

  it('takes any of the settings, each left as it was unless named', async () => {
    const bea = await signIn(t.url, 'Bea');
    expect((await patch({ notification_preview: 'sender' }, bea.bearer)).body).toEqual({ ...bea.user, notification_preview: 'sender' });
    expect((await patch({ notification_sound: false, message_policy: 'following' }, bea.bearer)).body).toEqual({
      ...bea.user,
      notification_preview: 'sender',
      notification_sound: false,
      message_policy: 'following',
    });
    const all = { language: 'es', message_policy: 'nobody', notification_preview: 'none', notification_sound: true } as const;
    expect((await patch(all, bea.bearer)).body).toEqual({ ...bea.user, ...all });
    expect((await api<User>(t.url, '/accounts/info', { token: bea.bearer })).body).toEqual({ ...bea.user, ...all });
  });

  it.each([
    ['an unsupported language', { language: 'de' }],
    ['a show_presence that is not a boolean', { show_presence: 'no' }],
    ['nothing to change', {}],
    ['an unknown preview', { notification_preview: 'all' }],
    ['a sound that is not a boolean', { notification_sound: 'off' }],
    ['a good setting beside a bad one', { notification_sound: false, message_policy: 'friends' }],
    ['an unknown field', { language: 'es', theme: 'dark' }],
    ['a non-object', ['es']],
  ])('400s %s', async (_label, body) => {
    const alice = await signIn(t.url, 'Alice');
    const response = await patch(body, alice.bearer);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: expect.arrayContaining([expect.any(String)]) });
    expect((await api<User>(t.url, '/accounts/info', { token: alice.bearer })).body).toMatchObject({ language: 'en', show_presence: true });
  });

  it('401s without a token and 403s a deactivated account', async () => {
    expect((await patch({ language: 'es' })).status).toBe(401);
    const gone = await signIn(t.url, 'Gone');
    await setUserActive(t.db, gone.user.id, false);
    expect((await patch({ language: 'es' }, gone.bearer)).status).toBe(403);
  });
});
