// The endpoints as the default client sends them: origin-anchored /api paths, methods, bodies.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizeRequest, AuthorizeResponse, User } from '@/lib/contract';
import { storeToken } from '@/lib/session/storage';
import { authorize, fetchAccountInfo, logout } from './accounts';

const user: User = { id: 7, username: 'ada', email: 'ada@example.com', avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

let requests: Request[];
let bodies: string[];

function respondWith(status: number, body?: unknown) {
  const fetchStub = vi.fn(async (input: Request) => {
    requests.push(input);
    bodies.push(await input.text());
    return body === undefined
      ? new Response(null, { status })
      : new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
}

describe('accounts api', () => {
  beforeEach(() => {
    localStorage.clear();
    requests = [];
    bodies = [];
    return () => {
      vi.unstubAllGlobals();
    };
  });

  it('authorize POSTs the sign-in request to {api}/accounts/authorize', async () => {
    const response: AuthorizeResponse = { token: 't0k', user };
    respondWith(200, response);
    const body: AuthorizeRequest = {
      username: 'ada',
      email: 'ada@example.com',
      firebase_id: 'uid-1',
      social_type: 'google',
      avatar: null,
      id_token: 'id-token',
    };

    await expect(authorize(body)).resolves.toEqual(response);

    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${window.location.origin}/api/accounts/authorize`);
    expect(JSON.parse(bodies[0] ?? '')).toEqual(body);
  });

  it('fetchAccountInfo GETs {api}/accounts/info with the token', async () => {
    storeToken('abc');
    respondWith(200, user);
    await expect(fetchAccountInfo()).resolves.toEqual(user);
    expect(requests[0]?.method).toBe('GET');
    expect(requests[0]?.url).toBe(`${window.location.origin}/api/accounts/info`);
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer abc');
  });

  it('logout POSTs and accepts an empty 204', async () => {
    respondWith(204);
    await expect(logout()).resolves.toBeUndefined();
    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/accounts/logout',
    ]);
  });
});
