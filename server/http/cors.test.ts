// Split deployment: the pages on https://app.parley.test, this server on another origin with
// ALLOWED_ORIGINS. The API answers CORS to the allowed origin only, and so does Socket.IO.
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/helpers';
import { SOCKET_PROTOCOL } from '../../lib/contract';

const APP = 'https://app.parley.test';
const FOREIGN = 'https://evil.example';

let split: TestServer;
let single: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  [split, single] = await Promise.all([
    startTestServer({ inMemory: true, config: { allowedOrigins: [APP] } }),
    startTestServer({ inMemory: true }),
  ]);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(() => Promise.all([split?.close(), single?.close()]));

const preflight = (base: string, origin: string, method = 'POST') =>
  fetch(`${base}/api/uploads`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,x-file-name' },
  });

function socketConnects(base: string, origin: string, transport: 'polling' | 'websocket'): Promise<'connected' | string> {
  // No token (the app's protocol named): an allowed origin gets as far as the auth check; a foreign one not even that.
  const socket = connect(base, { auth: { protocol: SOCKET_PROTOCOL }, transports: [transport], extraHeaders: { origin }, reconnection: false, forceNew: true, timeout: 10_000 });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

describe('CORS with ALLOWED_ORIGINS (split deployment)', () => {
  it('answers a preflight from an allowed origin: its origin, the methods and headers the client sends, no credentials', async () => {
    const response = await preflight(split.url, APP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, X-File-Name');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  it('refuses a preflight and a request from any other origin, with no CORS headers', async () => {
    const refused = await preflight(split.url, FOREIGN);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const request = await fetch(`${split.url}/api/health`, { headers: { origin: FOREIGN } });
    expect(request.status).toBe(403);
    expect(await request.json()).toEqual({ msg: 'Origin not allowed.' });
  });

  it('lets the allowed origin read answers, errors included, and the headers it needs (Retry-After)', async () => {
    const ok = await fetch(`${split.url}/api/health`, { headers: { origin: APP } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const unauthorized = await fetch(`${split.url}/api/accounts/info`, { headers: { origin: APP } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('serves requests without an Origin (load balancers, server-side callers) as before', async () => {
    const response = await fetch(`${split.url}/api/ready`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the allowed origin open a socket, over long polling (with CORS) and WebSocket; refuses the other', async () => {
    expect(await socketConnects(split.url, APP, 'polling')).toMatch(/unauthori[sz]ed|token/i);
    expect(await socketConnects(split.url, APP, 'websocket')).toMatch(/unauthori[sz]ed|token/i);
    expect(await socketConnects(split.url, FOREIGN, 'polling')).not.toMatch(/unauthori[sz]ed|token|connected/i);
    expect(await socketConnects(split.url, FOREIGN, 'websocket')).not.toMatch(/unauthori[sz]ed|token|connected/i);

    const handshake = await fetch(`${split.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: APP } });
    expect(handshake.status).toBe(200);
    expect(handshake.headers.get('access-control-allow-origin')).toBe(APP);
    const foreign = await fetch(`${split.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: FOREIGN } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('without ALLOWED_ORIGINS (one origin)', () => {
  it('adds no CORS at all: a preflight is not answered and no origin is let in', async () => {
    expect((await preflight(single.url, FOREIGN)).status).toBe(404);
    const response = await fetch(`${single.url}/api/health`, { headers: { origin: FOREIGN } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
