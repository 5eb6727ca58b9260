import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../db/session-token';
import { sessions, users } from '../db/schema';
import { api, signIn, startTestServer, type TestServer } from '../test/helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const info = (token?: string) => api(t.url, '/accounts/info', { token });
const post = (route: string, token?: string) => api(t.url, route, { method: 'POST', token });

describe('GET /api/accounts/info', () => {
  it('returns the signed-in user for the stored "Bearer <token>" value', async () => {
    const alice = await signIn(t.url, 'Alice');
    const response = await info(alice.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...alice.user, is_active: true });
  });

  it('also accepts the bare token', async () => {
    const alice = await signIn(t.url);
    expect((await info(alice.token)).status).toBe(200);
  });

  it.each([
    ['no token', undefined],
    ['an empty header', ''],
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('401s with a msg for %s', async (_label, token) => {
    const response = await info(token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: expect.any(String) });
  });

  it('returns is_active false for a deactivated user, so the client signs them out', async () => {
    const alice = await signIn(t.url);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, alice.user.id));
    const response = await info(alice.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: alice.user.id, is_active: false });
  });
});

describe('POST /api/accounts/logout', () => {
  it('revokes only the presented session', async () => {
    const alice = await signIn(t.url);
    const otherDevice = await signIn(t.url);
    expect((await post('/accounts/logout', alice.bearer)).status).toBe(204);

    const revoked = await info(alice.bearer);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ msg: expect.any(String) });
    expect((await info(otherDevice.bearer)).status).toBe(200);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.tokenHash, hashSessionToken(alice.token)));
    expect(row?.revokedAt).toBeInstanceOf(Date);
  });

  it('401s without a live session', async () => {
    const alice = await signIn(t.url);
    await post('/accounts/logout', alice.bearer);
    expect((await post('/accounts/logout', alice.bearer)).status).toBe(401);
    expect((await post('/accounts/logout')).status).toBe(401);
  });
});

describe('POST /api/accounts/deactivate', () => {
  it('deactivates the caller only', async () => {
    const alice = await signIn(t.url);
    const bob = await signIn(t.url);
    expect((await post('/accounts/deactivate', alice.bearer)).status).toBe(204);
    expect((await info(alice.bearer)).body).toMatchObject({ is_active: false });
    expect((await info(bob.bearer)).body).toMatchObject({ is_active: true });
  });

  it('401s without a session', async () => {
    expect((await post('/accounts/deactivate')).status).toBe(401);
  });
});

describe('session storage', () => {
  it('stores only the sha256 of the token', async () => {
    const alice = await signIn(t.url);
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, alice.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashSessionToken(alice.token));
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(alice.token);
  });
});
