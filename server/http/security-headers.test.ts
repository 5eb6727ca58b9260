import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../lib/contract';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';
import { pngBytes } from '../test/uploads';
import { withSecurityHeaders } from './security-headers';

const SHARED = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'permissions-policy': expect.stringContaining('camera=()'),
};
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

let t: TestServer;
let alice: SignedInUser;
beforeAll(async () => {
  t = await startTestServer();
  alice = await signIn(t.url, 'Alice');
});
afterAll(() => t.close());

const headersOf = (response: { headers: Headers }) => Object.fromEntries(response.headers);

describe('security headers on /api', () => {
  it.each([
    ['a success', 'GET', '/health', 200],
    ['a 401', 'GET', '/accounts/info', 401],
    ['a validation error', 'POST', '/accounts/authorize', 400],
    ['an unknown route', 'GET', '/no-such-route', 404],
    ['a malformed URL', 'GET', '/users/%E0%A4%A', 400],
  ] as const)('%s carries them, with a CSP that allows nothing', async (_case, method, route, status) => {
    const response = await api(t.url, route, { method, json: method === 'POST' ? {} : undefined });
    expect(response.status).toBe(status);
    expect(headersOf(response)).toMatchObject({ ...SHARED, 'content-security-policy': API_CSP });
  });

  it('an authenticated JSON response carries them', async () => {
    const response = await api(t.url, '/accounts/info', { token: alice.bearer });
    expect(response.status).toBe(200);
    expect(headersOf(response)).toMatchObject({ ...SHARED, 'content-security-policy': API_CSP });
  });

  it('no Strict-Transport-Security outside production', async () => {
    const response = await api(t.url, '/health');
    expect(response.headers.has('strict-transport-security')).toBe(false);
  });

  it('a served upload keeps its own sandboxing CSP and nosniff, with the shared headers', async () => {
    const png = pngBytes(2, 2);
    const uploaded = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: alice.bearer, 'content-type': 'image/png', 'x-file-name': 'dot.png' },
      body: new Uint8Array(png),
    });
    expect(uploaded.status).toBe(201);
    const attachment = (await uploaded.json()) as Attachment;

    const served = await fetch(`${t.url}${attachment.url}`);
    expect(served.status).toBe(200);
    const headers = headersOf(served);
    expect(headers).toMatchObject({ ...SHARED, 'content-security-policy': "default-src 'none'; sandbox" });
    // Replaced, not sent twice (a second CSP header would be enforced too, but say something else).
    expect(headers['content-security-policy']).not.toContain(',');
  });
});

describe('withSecurityHeaders in production', () => {
  it('adds Strict-Transport-Security (the e2e suite checks the real production server)', async () => {
    const server = createHttpServer(
      withSecurityHeaders((_req, res) => res.end('ok'), { production: true }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(headersOf(response)).toMatchObject({
        ...SHARED,
        'content-security-policy': API_CSP,
        'strict-transport-security': 'max-age=63072000; includeSubDomains',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
