// Limits for what a client can do with no account to charge (new accounts, downloads), per client
// address behind a trusted proxy; the cap on one account's sessions; reports of one person by one
// account, limited and added to one open report.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, AuthorizeResponse } from '../../lib/contract';
import { DEFAULT_SESSION_RULES } from '../db/session-rules';
import { reports } from '../db/schema';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { type EmulatorAccount, emulatorSignIn } from '../test/emulator';
import { api, authorizeBody, signIn, uniqueProfile, type SignedInUser } from '../test/helpers';

// So slow a refill that nothing comes back during the test: the burst is all there is.
const burst = (n: number) => ({ perSecond: 1 / 3600, burst: n });
const TOO_MANY = { msg: expect.stringMatching(/^Too many requests\. Try again in \d+ s\.$/) };

let t: ConfiguredTestServer;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await startConfiguredServer({
    config: {
      // Behind a proxy: X-Forwarded-For names the client, so each test can be a client of its own.
      trustProxy: true,
      rateLimits: { signup: burst(2), download: burst(3), report: burst(3) },
      sessions: { ...DEFAULT_SESSION_RULES, checkIntervalMs: 0, maxPerUser: 2 },
    },
  });
  // From 127.0.0.1, which no test below uses.
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});
afterAll(() => t?.close());

async function authorize(account: EmulatorAccount, from: string) {
  const response = await fetch(`${t.url}/api/accounts/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(authorizeBody(account)),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as AuthorizeResponse | { msg: string } };
}

const download = (url: string, from: string) => fetch(`${t.url}${url}`, { headers: { 'x-forwarded-for': from } });

describe('new accounts per address', () => {
  it('refuses a third new account from one address, but not a sign-in of an existing one, nor another address', async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => emulatorSignIn(uniqueProfile('New'))));
    expect((await authorize(accounts[0]!, '203.0.113.1')).status).toBe(200);
    expect((await authorize(accounts[1]!, '203.0.113.1')).status).toBe(200);
    expect(await authorize(accounts[2]!, '203.0.113.1')).toMatchObject({ status: 429, retryAfter: expect.stringMatching(/^\d+$/), body: TOO_MANY });
    expect((await authorize(accounts[0]!, '203.0.113.1')).status).toBe(200); // signing in again is not signing up
    expect((await authorize(accounts[3]!, '203.0.113.2')).status).toBe(200);
  });
});

describe('sessions per account', () => {
  it('ends the least recently used past the cap, so a new sign-in always works', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { body } = await authorize(alice.account, '198.51.100.9');
      tokens.push(`Bearer ${(body as AuthorizeResponse).token}`);
    }
    // alice.token (the first sign-in) and the next are the least recently used of four.
    const statuses = await Promise.all([alice.bearer, ...tokens].map(async (token) => (await api(t.url, '/accounts/info', { token })).status));
    expect(statuses).toEqual([401, 401, 200, 200]);
  });
});

describe('downloads per address', () => {
  it('charges a file and its size to the client address, which another address does not share', async () => {
    const uploaded = await fetch(`${t.url}/api/uploads`, { method: 'POST', headers: { authorization: bob.bearer, 'x-file-name': 'a.txt' }, body: 'hello' });
    const { url } = (await uploaded.json()) as Attachment;
    for (let i = 0; i < 3; i++) expect((await download(url, '192.0.2.7')).status).toBe(200);
    const refused = await download(url, '192.0.2.7');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(TOO_MANY);
    expect((await download(url, '192.0.2.8')).status).toBe(200);
  });
});

describe('reports of one person by one account', () => {
  it('add to one open report, and are limited', async () => {
    const file = (details: string) => api<{ id: number }>(t.url, '/reports', { method: 'POST', token: bob.bearer, json: { user_id: alice.user.id, reason: 'spam', details } });
    const answers = [await file('one'), await file('two'), await file('three')];
    expect(answers.map(({ status }) => status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map(({ body }) => body.id)).size).toBe(1);
    expect(await file('four')).toMatchObject({ status: 429, body: TOO_MANY });
    const [row] = await t.db.select().from(reports).where(eq(reports.id, answers[0]!.body.id));
    expect(row).toMatchObject({ filings: 3, details: 'one\n\ntwo\n\nthree' });
  });
});
