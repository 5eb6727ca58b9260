import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, startTestServer, type TestServer } from '../test/helpers';
import { connectSocket, emitWithAck, nextEvent } from '../test/socket-client';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('ending a session or an account closes its sockets', () => {
  it('deactivate disconnects every socket of the user, initialised or not', async () => {
    const alice = await signIn(t.url, 'Alice');
    const bob = await signIn(t.url, 'Bob');
    const initialised = await connectSocket(t.url, alice.bearer);
    await emitWithAck(initialised, 'init', { id: alice.user.id });
    const fresh = await connectSocket(t.url, alice.bearer);
    const bystander = await connectSocket(t.url, bob.bearer);

    const reasons = Promise.all([initialised, fresh].map((socket) => nextEvent<string>(socket, 'disconnect')));
    const response = await api(t.url, '/accounts/deactivate', { method: 'POST', token: alice.bearer });

    expect(response.status).toBe(204);
    expect(await reasons).toEqual(['io server disconnect', 'io server disconnect']);
    expect(bystander.connected).toBe(true);
    bystander.close();
  });

  it('logout disconnects the sockets of that session only', async () => {
    const alice = await signIn(t.url);
    const secondSession = await api<{ token: string }>(t.url, '/accounts/authorize', {
      method: 'POST',
      json: {
        firebase_id: alice.account.uid,
        social_type: 'google',
        id_token: alice.account.idToken,
      },
    });
    const loggedOut = await connectSocket(t.url, alice.bearer);
    const stays = await connectSocket(t.url, `Bearer ${secondSession.body.token}`);

    const reason = nextEvent<string>(loggedOut, 'disconnect');
    await api(t.url, '/accounts/logout', { method: 'POST', token: alice.bearer });

    expect(await reason).toBe('io server disconnect');
    expect(stays.connected).toBe(true);
    stays.close();
  });
});
