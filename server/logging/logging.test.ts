import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../lib/contract';
import { startConfiguredServer } from '../test/configured-server';
import { redactUrl } from './logger-options';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { send } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  socketId?: string;
  userId?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

const DEBUG = 20;
const INFO = 30;
const ERROR = 50;
const { t, tabs } = serverWithTabs(() => startConfiguredServer({ captureLogs: true }));
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});

const lines = (): LogLine[] => t.logLines.map((line) => JSON.parse(line) as LogLine);
const everything = () => t.logLines.join('\n');

describe('what never reaches the logs', () => {
  it('keeps ID tokens, session tokens and message text out, through a whole session', async () => {
    const carol = await signIn(t.url, 'Carol'); // POST /accounts/authorize with an id_token
    const info = await api(t.url, '/accounts/info', { token: carol.bearer });
    expect(info.status).toBe(200);
    const tab = await tabs.open(carol);
    const text = `distinctive-${randomUUID()}`;
    expect(await send(tab, bob, text)).toMatchObject({ data: { text } });
    // Whatever code might one day log these under their usual names is redacted too.
    t.server.app.log.info(
      {
        token: carol.token,
        id_token: carol.account.idToken,
        text,
        headers: { authorization: carol.bearer },
        payload: { text },
        req: { method: 'GET', url: '/x', headers: { authorization: carol.bearer }, body: { text } },
      },
      'careless line',
    );

    await expect.poll(() => lines().some((line) => line.msg === 'careless line')).toBe(true);
    const logged = everything();
    expect(logged).toContain('/api/accounts/authorize'); // the calls were logged...
    expect(logged).toContain('socket event handled');
    for (const secret of [carol.account.idToken, carol.token, text]) expect(logged).not.toContain(secret); // ...their secrets not
    expect(lines().find((line) => line.msg === 'careless line')).toMatchObject({
      token: '[redacted]',
      id_token: '[redacted]',
      text: '[redacted]',
      headers: { authorization: '[redacted]' },
      payload: { text: '[redacted]' },
      // A request is logged by its method, URL and peer: never its headers or body.
      req: { method: 'GET', url: '/x' },
    });
    expect(lines().find((line) => line.msg === 'careless line')?.req).not.toHaveProperty('headers');
  });

  it('keeps message text out of a database error’s message, stack and detail', async () => {
    const marker = `boom-${randomUUID()}`;
    await t.db.execute(sql.raw(`ALTER TABLE messages ADD CONSTRAINT no_boom CHECK (position('boom-' in text) = 0)`));
    try {
      const tab = await tabs.open(alice);
      expect(await send(tab, bob, `the text ${marker}`)).toEqual({ error: { msg: 'Internal server error' } });
      await expect.poll(() => lines().some((line) => line.msg === 'socket event failed')).toBe(true);
      const failure = lines().find((line) => line.msg === 'socket event failed');
      // The failure itself is logged in full (with its stack), only the values are gone.
      expect(failure).toMatchObject({ level: ERROR, userId: alice.user.id, event: 'send' });
      expect(failure?.err?.stack).toContain('Failed query');
      expect(everything()).not.toContain(marker);
    } finally {
      await t.db.execute(sql.raw('ALTER TABLE messages DROP CONSTRAINT no_boom'));
    }
  });
});

describe('URLs in request lines', () => {
  it('redact what was searched for and upload capabilities, keeping the rest of the URL', async () => {
    const term = `needle${randomUUID().slice(0, 8)}`;
    const search = await api(t.url, `/users/search?limit=5&q=${term}`, { token: alice.bearer });
    expect(search.status).toBe(200);
    // The same parameter spelled another way is the same parameter.
    expect((await api(t.url, `/users/search?%71=${term}x`, { token: alice.bearer })).status).toBe(200);

    const uploaded = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: alice.bearer, 'x-file-name': 'private-plans.txt' },
      body: 'plans',
    });
    const attachment = (await uploaded.json()) as Attachment;
    const served = await fetch(`${t.url}${attachment.url}?download=1`);
    expect(served.status).toBe(200);
    const reqId = served.headers.get('x-request-id');

    await expect.poll(() => lines().some((line) => line.reqId === reqId && line.msg === 'request completed')).toBe(true);
    const urls = lines().flatMap((line) => ((line.req as { url?: string } | undefined)?.url ? [(line.req as { url: string }).url] : []));
    expect(urls).toContain('/api/users/search?limit=5&q=[redacted]');
    expect(urls).toContain('/api/users/search?%71=[redacted]');
    expect(urls).toContain('/api/uploads/[redacted]/[redacted]?download=1');
    for (const secret of [term, attachment.id, 'private-plans']) expect(everything()).not.toContain(secret);
  });
});

describe('parameters in logged URLs', () => {
  it('logs the values of the API’s paging and download parameters only: a ?token= is redacted', () => {
    expect(redactUrl('/api/conversations?cursor=abc&limit=5')).toBe('/api/conversations?cursor=abc&limit=5');
    expect(redactUrl('/api/accounts/info?token=secret&%74oken=secret2&access_token=s3&secret')).toBe('/api/accounts/info?token=[redacted]&%74oken=[redacted]&access_token=[redacted]&[redacted]');
  });
});

describe('request ids', () => {
  it('keeps a sane incoming x-request-id, echoes it and logs every line of the request with it', async () => {
    const id = `trace_${randomUUID()}`.slice(0, 64);
    const response = await fetch(`${t.url}/api/accounts/info`, { headers: { authorization: alice.bearer, 'x-request-id': id } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(id);
    await expect.poll(() => lines().filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
  });

  it.each([
    ['too long', 'a'.repeat(65)],
    ['with other characters', 'id with spaces{}'],
    ['forging a log line', 'x\n{"level":60}'],
  ])('replaces an incoming id %s with a fresh one', async (_case, incoming) => {
    const response = await fetch(`${t.url}/api/health`, { headers: { 'x-request-id': encodeURI(incoming) } });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => lines().some((line) => line.reqId === id)).toBe(true);
  });

  it('gives each request its own id when none is sent', async () => {
    const [a, b] = await Promise.all([fetch(`${t.url}/api/health`), fetch(`${t.url}/api/health`)]);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('faults', () => {
  it('counts a client fault into the refusal summary, its reason at debug under the request id, no stack', async () => {
    const response = await api(t.url, '/users/search?q=', { token: alice.bearer });
    expect(response.status).toBe(400);
    const reqId = response.headers.get('x-request-id');
    await expect.poll(() => lines().some((line) => line.reqId === reqId && line.msg === 'request refused')).toBe(true);
    const refusal = lines().find((line) => line.reqId === reqId && line.msg === 'request refused');
    expect(refusal).toMatchObject({ level: DEBUG, statusCode: 400, reason: expect.stringContaining('q:') });
    expect(lines().filter((line) => line.reqId === reqId).some((line) => 'err' in line || line.level > DEBUG)).toBe(false);
    t.server.app.refusals.flush();
    expect(lines().find((line) => line.msg === 'refused' && line.who === `account ${alice.user.id}` && line.reason === '400 GET /api/users/search')).toMatchObject({
      level: INFO,
      count: 1,
      sample: expect.stringContaining('q:'),
    });
  });

  it('counts a refused socket event, its detail at debug with the socket and user ids and no stack', async () => {
    const tab = await tabs.open(alice);
    const error = { non_field_errors: ['recipient_id: You cannot message yourself.'] };
    expect(await send(tab, alice, 'to myself')).toEqual({ error });
    await expect.poll(() => lines().some((line) => line.msg === 'socket event refused' && line.socketId === tab.id)).toBe(true);
    const refusal = lines().find((line) => line.msg === 'socket event refused' && line.socketId === tab.id);
    expect(refusal).toMatchObject({ level: DEBUG, userId: alice.user.id, event: 'send', error });
    expect(refusal).not.toHaveProperty('err');
    t.server.app.refusals.flush();
    expect(lines().find((line) => line.msg === 'refused' && line.who === `account ${alice.user.id}` && line.reason === 'refused send')).toMatchObject({
      level: INFO,
      sample: error.non_field_errors[0],
    });
  });

  it('logs a server fault at error with the stack, under the request id', async () => {
    await t.db.execute(sql.raw(`ALTER TABLE users ADD CONSTRAINT no_fr CHECK (language <> 'fr')`));
    try {
      const response = await api(t.url, '/accounts/settings', { method: 'PATCH', token: alice.bearer, json: { language: 'fr' } });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ msg: 'Internal server error' });
      const reqId = response.headers.get('x-request-id');
      await expect.poll(() => lines().some((line) => line.reqId === reqId && line.level === ERROR)).toBe(true);
      const failure = lines().find((line) => line.reqId === reqId && line.level === ERROR);
      expect(failure?.err?.stack).toMatch(/Failed query[\s\S]*\n\s+at /);
    } finally {
      await t.db.execute(sql.raw('ALTER TABLE users DROP CONSTRAINT no_fr'));
    }
  });
});
