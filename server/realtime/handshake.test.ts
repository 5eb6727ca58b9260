import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type TestServer } from '../test/helpers';
import { connectSocket } from '../test/socket-client';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('socket handshake', () => {
  it('accepts the stored "Bearer <token>" value', async () => {
    const alice = await signIn(t.url);
    const socket = await connectSocket(t.url, alice.bearer);
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('accepts the bare token', async () => {
    const alice = await signIn(t.url);
    const socket = await connectSocket(t.url, alice.token);
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('refuses a handshake without a token', async () => {
    await expect(connectSocket(t.url)).rejects.toThrow('Unauthorized');
  });

  it('refuses an unknown token', async () => {
    await expect(connectSocket(t.url, 'Bearer not-a-session')).rejects.toThrow('Unauthorized');
  });

  it('refuses a revoked token', async () => {
    const alice = await signIn(t.url);
    await api(t.url, '/accounts/logout', { method: 'POST', token: alice.bearer });
    await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow('Unauthorized');
  });

  it('refuses a deactivated user', async () => {
    const alice = await signIn(t.url);
    await setUserActive(t.db, alice.user.id, false);
    await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow('Unauthorized');
  });
});
