import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { signIn, type SignedInUser } from '../test/helpers';
import { isAllowedOrigin } from './origin';
import { SOCKET_PROTOCOL } from '../../lib/contract';

describe('isAllowedOrigin', () => {
  it('allows requests without an Origin (not a browser)', () => {
    expect(isAllowedOrigin(undefined, 'parley.example', null)).toBe(true);
    expect(isAllowedOrigin(undefined, 'parley.example', ['https://other.example'])).toBe(true);
  });

  it('without a list, allows only the origin the request was addressed to', () => {
    expect(isAllowedOrigin('https://parley.example', 'parley.example', null)).toBe(true);
    expect(isAllowedOrigin('http://localhost:3000', 'localhost:3000', null)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', null)).toBe(true);
    expect(isAllowedOrigin('https://PARLEY.example', 'Parley.Example', null)).toBe(true);
    expect(isAllowedOrigin('https://evil.example', 'parley.example', null)).toBe(false);
    expect(isAllowedOrigin('http://localhost:3001', 'localhost:3000', null)).toBe(false);
    expect(isAllowedOrigin('https://parley.example.evil.example', 'parley.example', null)).toBe(false);
    expect(isAllowedOrigin('https://parley.example', undefined, null)).toBe(false);
  });

  it('with a list, allows exactly its origins', () => {
    const list = ['https://parley.example', 'http://localhost:3000'];
    expect(isAllowedOrigin('https://parley.example', 'internal:3000', list)).toBe(true);
    expect(isAllowedOrigin('https://parley.example:443', 'internal:3000', list)).toBe(true);
    expect(isAllowedOrigin('http://parley.example', 'internal:3000', list)).toBe(false);
    expect(isAllowedOrigin('http://internal:3000', 'internal:3000', list)).toBe(false);
  });

  it('refuses opaque and malformed origins', () => {
    for (const origin of ['null', 'file://', 'chrome-extension://abc', 'not a url', 'https://a.example, https://b.example']) {
      expect(isAllowedOrigin(origin, 'a.example', null)).toBe(false);
    }
  });
});

type Transport = 'polling' | 'websocket';
const open: Socket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});

/** A real client on one transport, as a browser at `origin` would connect (no Origin: not a browser). */
function connectFrom(base: string, user: SignedInUser, transport: Transport, origin?: string): Promise<Socket> {
  const socket = connect(base, {
    auth: { token: user.bearer, protocol: SOCKET_PROTOCOL },
    transports: [transport],
    extraHeaders: origin ? { origin } : {},
    reconnection: false,
    forceNew: true,
    timeout: 5_000,
  });
  open.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The Engine.IO handshake itself, to see the refusal the server sends. */
async function pollingHandshake(base: string, origin?: string) {
  const response = await fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: origin ? { origin } : {} });
  return { status: response.status, body: await response.text() };
}

describe('socket Origin check, default (same origin only)', () => {
  let t: ConfiguredTestServer;
  let alice: SignedInUser;
  beforeAll(async () => {
    t = await startConfiguredServer();
    alice = await signIn(t.url, 'Alice');
  });
  afterAll(() => t.close());

  it.each<Transport>(['polling', 'websocket'])('refuses a foreign origin (%s)', async (transport) => {
    await expect(connectFrom(t.url, alice, transport, 'https://evil.example')).rejects.toThrow();
    // The same client from the server's own origin gets in: it was the Origin that was refused.
    expect((await connectFrom(t.url, alice, transport, t.url)).connected).toBe(true);
  });

  it.each<Transport>(['polling', 'websocket'])('accepts a client that sends no Origin (%s)', async (transport) => {
    expect((await connectFrom(t.url, alice, transport)).connected).toBe(true);
  });

  it('answers a foreign handshake 403 before any session exists', async () => {
    const refused = await pollingHandshake(t.url, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ code: 4, message: 'Origin not allowed' });
    expect((await pollingHandshake(t.url, t.url)).status).toBe(200);
    expect((await pollingHandshake(t.url)).status).toBe(200);
  });
});

describe('socket Origin check with ALLOWED_ORIGINS', () => {
  let t: ConfiguredTestServer;
  let alice: SignedInUser;
  beforeAll(async () => {
    t = await startConfiguredServer({ config: { allowedOrigins: ['https://parley.example'] } });
    alice = await signIn(t.url, 'Alice');
  });
  afterAll(() => t.close());

  it.each<Transport>(['polling', 'websocket'])('accepts a listed origin and refuses any other (%s)', async (transport) => {
    expect((await connectFrom(t.url, alice, transport, 'https://parley.example')).connected).toBe(true);
    // The list is the whole rule: even the host the request was sent to is not implied.
    await expect(connectFrom(t.url, alice, transport, t.url)).rejects.toThrow();
    await expect(connectFrom(t.url, alice, transport, 'https://evil.example')).rejects.toThrow();
    expect((await connectFrom(t.url, alice, transport)).connected).toBe(true);
  });
});
