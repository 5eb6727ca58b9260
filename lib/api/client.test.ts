// Runs the real client against a local HTTP server: the header, the error mapping, the 401 rule
// and the retry policy are all observed from the server's side of the wire.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isHTTPError, type KyInstance } from 'ky';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/contract';
import { setNavigator } from '@/lib/navigation';
import { getStoredToken, storeLocale, storeToken } from '@/lib/session/storage';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { createApiClient, resolveApiPrefix } from './client';

type Reply = { status: number; body?: unknown };
const replies: Record<string, Reply> = {
  '/api/echo': { status: 200 },
  '/api/echo?cursor=x': { status: 200 },
  '/api/unauthorized': { status: 401, body: { msg: 'Session expired.' } },
  '/api/invalid': { status: 400, body: { non_field_errors: ['Too long.', 'Unknown user.'] } },
  '/api/unavailable': { status: 503, body: { msg: 'Try later.' } },
};

let server: Server;
let origin: string;
let hits: Record<string, number>;
let lastAuthorization: string | undefined;
let client: KyInstance;
let navigateSpy: ReturnType<typeof vi.fn<(path: string) => void>>;

const user: User = { id: 7, username: 'ada', email: null, avatar: null, language: 'fr', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

function handle(request: IncomingMessage) {
  const path = request.url ?? '';
  hits[path] = (hits[path] ?? 0) + 1;
  lastAuthorization = request.headers.authorization;
  return replies[path] ?? { status: 404 };
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.url === '/api/slow') await new Promise((resolve) => setTimeout(resolve, 200));
    const { status, body } = handle(request);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { authorization: request.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  localStorage.clear();
  hits = {};
  lastAuthorization = undefined;
  client = createApiClient({ prefix: `${origin}/api` });
  navigateSpy = vi.fn<(path: string) => void>();
  const unregister = setNavigator(navigateSpy);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  return unregister;
});

async function failure(request: Promise<unknown>): Promise<Error> {
  const error = await request.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof Error)) throw new Error('expected the request to fail');
  return error;
}

describe('api client', () => {
  it('sends the stored token as is in Authorization', async () => {
    storeToken('abc');
    await client.get('echo').json();
    expect(lastAuthorization).toBe('Bearer abc');
  });

  it('sends no Authorization header without a token', async () => {
    await client.get('echo').json();
    expect(hits['/api/echo']).toBe(1);
    expect(lastAuthorization).toBeUndefined();
  });

  it('401 signs out (token only), keeps locale and user, and goes to /accounts', async () => {
    storeToken('abc');
    storeLocale('fr');
    publishUser(user);

    const error = await failure(client.get('unauthorized').json());

    expect(isHTTPError(error) && error.response.status).toBe(401);
    expect(error.message).toBe('Session expired.');
    expect(getStoredToken()).toBeNull();
    expect(localStorage.getItem('locale')).toBe('fr');
    expect(useSessionStore.getState().user).toEqual(user);
    expect(navigateSpy).toHaveBeenCalledExactlyOnceWith('/accounts');
    expect(hits['/api/unauthorized']).toBe(1);
    expect(console.error).toHaveBeenCalledWith(error);
  });

  it('other errors carry the body’s message and keep the session', async () => {
    storeToken('abc');
    const error = await failure(client.post('invalid', { json: {} }).json());
    expect(isHTTPError(error) && error.response.status).toBe(400);
    expect(error.message).toBe('Too long. Unknown user.');
    expect(getStoredToken()).toBe('Bearer abc');
    expect(navigateSpy).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledOnce();
  });

  it('never retries a POST', async () => {
    await failure(client.post('unavailable').json());
    expect(hits['/api/unavailable']).toBe(1);
  });

  it('retries a GET a little on a server error', async () => {
    const error = await failure(client.get('unavailable').json());
    expect(error.message).toBe('Try later.');
    expect(hits['/api/unavailable']).toBe(3);
  });

  it('without a response the raw error is passed on, and nobody is signed out', async () => {
    storeToken('abc');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));

    const error = await failure(createApiClient({ prefix: `${deadOrigin}/api` }).post('echo').json());

    // ky's own NetworkError, message untouched: there was no body to read a message from.
    expect(isHTTPError(error)).toBe(false);
    expect(error.name).toBe('NetworkError');
    expect(error.message).toBe(`Request failed due to a network error: POST ${deadOrigin}/api/echo`);
    expect(getStoredToken()).toBe('Bearer abc');
    expect(navigateSpy).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledWith(error);
  });
});

describe('api client cancellation', () => {
  it('a request its caller aborts rejects with AbortError, unlogged, and signs nobody out', async () => {
    storeToken('abc');
    const controller = new AbortController();
    const request = client.get('slow', { signal: controller.signal }).json();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(request);
    expect(error.name).toBe('AbortError');
    expect(console.error).not.toHaveBeenCalled();
    expect(getStoredToken()).toBe('Bearer abc');
    expect(navigateSpy).not.toHaveBeenCalled();
  });
});

describe('resolveApiPrefix', () => {
  it('anchors a relative API path at the page origin and leaves absolute ones alone', () => {
    expect(resolveApiPrefix('/api')).toBe(`${window.location.origin}/api`);
    expect(resolveApiPrefix('https://api.parley.test/v1')).toBe('https://api.parley.test/v1');
  });
});

describe('the main area’s first requests, started by the page’s own script', () => {
  /** What the script leaves (early-requests.ts): the answers it asked for, by path under the API. */
  const started = (authorization: string, paths: string[]) => {
    window.__parleyEarly = {
      authorization,
      responses: Object.fromEntries(paths.map((path) => [path, fetch(`${origin}/api/${path}`, { headers: { Authorization: authorization } })])),
    };
  };
  afterEach(() => {
    delete window.__parleyEarly;
  });

  it('hands the answer over once, with the token hook’s header; the next ask goes to the network', async () => {
    storeToken('abc');
    started('Bearer abc', ['echo']);
    expect(await client.get('echo').json()).toEqual({ authorization: 'Bearer abc' });
    expect(hits['/api/echo']).toBe(1);
    await client.get('echo').json();
    expect(hits['/api/echo']).toBe(2);
  });

  it('applies the 401 rule to a handed-over answer', async () => {
    storeToken('abc');
    publishUser(user);
    started('Bearer abc', ['unauthorized']);
    expect((await failure(client.get('unauthorized').json())).message).toBe('Session expired.');
    expect(hits['/api/unauthorized']).toBe(1);
    expect(getStoredToken()).toBeNull();
    expect(navigateSpy).toHaveBeenCalledWith('/accounts');
  });

  it('is not handed over for another token, with a query, or for another method', async () => {
    started('Bearer abc', ['echo']);
    storeToken('other');
    await client.get('echo').json();
    storeToken('abc');
    await client.get('echo', { searchParams: { cursor: 'x' } }).json();
    await client.post('echo').json();
    expect(hits).toEqual({ '/api/echo': 3, '/api/echo?cursor=x': 1 });
    // Still there for the exact request.
    await client.get('echo').json();
    expect(hits['/api/echo']).toBe(3);
  });
});
