import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTDATED_CLIENT_MSG } from '../../lib/contract';
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

describe('socket protocols', () => {
  const refusal = (base: string, token: string | undefined, auth: Record<string, unknown> = {}) =>
    connectSocket(base, token, auth).then(
      () => null,
      (error: Error & { data?: unknown }) => ({ message: error.message, data: error.data }),
    );

  it('serves protocol 2, the one the app speaks', async () => {
    const alice = await signIn(t.url);
    const socket = await connectSocket(t.url, alice.bearer, { protocol: 2 });
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('refuses protocol 1, and a tab from before protocols were numbered (none named), so that it reloads', async () => {
    const alice = await signIn(t.url);
    for (const auth of [{ protocol: 1 }, {}]) {
      expect(await refusal(t.url, alice.bearer, auth)).toEqual({ message: OUTDATED_CLIENT_MSG, data: { protocols: [2] } });
    }
  });

  it('refuses a protocol it does not serve before anything else, naming those it serves', async () => {
    const alice = await signIn(t.url);
    for (const protocol of [3, 0, -1, 1.5, '1', '2', null, true, [1], { version: 1 }]) {
      expect(await refusal(t.url, alice.bearer, { protocol })).toEqual({ message: OUTDATED_CLIENT_MSG, data: { protocols: [2] } });
    }
    // Before the session: even without a token the answer is the protocol's.
    expect(await refusal(t.url, undefined, { protocol: 3 })).toEqual({ message: OUTDATED_CLIENT_MSG, data: { protocols: [2] } });
  });

  it('a release that serves only a later protocol refuses the clients of this one', async () => {
    const later = await startTestServer({ inMemory: true, socketProtocols: [3] });
    try {
      const alice = await signIn(later.url);
      expect(await refusal(later.url, alice.bearer, { protocol: 2 })).toEqual({ message: OUTDATED_CLIENT_MSG, data: { protocols: [3] } });
      const socket = await connectSocket(later.url, alice.bearer, { protocol: 3 });
      expect(socket.connected).toBe(true);
      socket.close();
    } finally {
      await later.close();
    }
  });
});
