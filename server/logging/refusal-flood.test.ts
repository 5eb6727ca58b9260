import type { FastifyBaseLogger } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ack } from '../../lib/contract';
import { startConfiguredServer } from '../test/configured-server';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { connectSocket, emitWithAck } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { MAX_REFUSED_IN_A_ROW } from '../realtime/socket-rate-limit';
import { createRefusalLog, REFUSAL_LOG_MAX_KEYS } from './refusal-log';

interface LogLine {
  msg?: string;
  who?: string;
  reason?: string;
  count?: number;
  keys?: number;
}

const FLOOD = 300;

describe('log volume under a flood of refusals, at the production level (info)', () => {
  const { t, tabs } = serverWithTabs(() =>
    startConfiguredServer({
      captureLogs: true,
      // Summed up when the test says (flush), not by the clock mid-flood.
      refusalLog: { intervalMs: 3_600_000 },
      config: { logLevel: 'info', rateLimits: { typing: { perSecond: 0.01, burst: 1 }, request: { perSecond: 0.01, burst: 1 } } },
    }),
  );
  let alice: SignedInUser;
  let bob: SignedInUser;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
  });

  it('writes one summary line per caller and reason, whatever the number of refusals', async () => {
    // A tab of its own every 40 typing events: one that keeps going past its refusals is closed
    // (MAX_REFUSED_IN_A_ROW), which is another test's matter.
    const perTab = Math.min(40, MAX_REFUSED_IN_A_ROW - 1);
    const before = t.logLines.length;
    let tab = await tabs.open(alice);
    // An address with no account trying tokens, and one account typing far over its budget.
    for (let i = 0; i < FLOOD; i++) {
      if (i > 0 && i % perTab === 0) tab = await tabs.open(alice);
      const [answer] = await Promise.all([
        api(t.url, '/accounts/info', { token: `Bearer not-a-token-${i}` }),
        emitWithAck<Ack<unknown>>(tab, 'typing', { user_id: bob.user.id, typing: true }),
      ]);
      expect(answer.status).toBe(401);
    }
    // And one account over its request budget.
    for (let i = 0; i < 20; i++) await api(t.url, '/accounts/info', { token: bob.bearer });
    t.server.app.refusals.flush();

    const written = t.logLines.slice(before).map((line) => JSON.parse(line) as LogLine);
    const summary = (who: string, reason: string) => written.filter((line) => line.msg === 'refused' && line.who === who && line.reason === reason);
    expect(summary('address 127.0.0.1', '401 GET /api/accounts/info')).toMatchObject([{ count: FLOOD }]);
    expect(summary(`account ${alice.user.id}`, 'rate limited: typing')).toMatchObject([{ count: FLOOD - 1 }]);
    expect(summary(`account ${bob.user.id}`, '429 GET /api/accounts/info')).toMatchObject([{ count: 19 }]);
    // ~640 refusals: three summary lines, and the two requests answered.
    expect(written.filter((line) => line.msg === 'request completed')).toHaveLength(1);
    // A line per tab connected (each paid for from the connect budget), nothing per refusal.
    const tabsOpened = Math.ceil(FLOOD / perTab);
    expect(written.filter((line) => line.msg === 'socket connected')).toHaveLength(tabsOpened);
    expect(written).toHaveLength(4 + tabsOpened);
  });
});

describe('log volume under a reconnect loop past the connect budget', () => {
  const { t } = serverWithTabs(() =>
    startConfiguredServer({
      captureLogs: true,
      refusalLog: { intervalMs: 3_600_000 },
      config: { logLevel: 'info', rateLimits: { connect: { perSecond: 0.01, burst: 1 } } },
    }),
  );

  it('refuses a reconnect loop before reading its session, counted into one summary line, nothing per attempt', async () => {
    const alice = await signIn(t.url, 'Alice');
    const before = t.logLines.length;
    const first = await connectSocket(t.url, alice.bearer);
    const attempts = 50;
    for (let i = 0; i < attempts; i++) await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow(/^Too many requests/);
    first.close();
    // Refused by the token's budget before its session is read: once the session has ended, the
    // answer is still the budget's, not "Unauthorized" (which only reading the session can say).
    expect((await api(t.url, '/accounts/logout', { method: 'POST', token: alice.bearer })).status).toBeLessThan(300);
    await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow(/^Too many requests/);
    t.server.app.refusals.flush();

    const written = t.logLines.slice(before).map((line) => JSON.parse(line) as LogLine);
    // The account is not known before its session is read: the refusals count against the address.
    expect(written.filter((line) => line.msg === 'refused')).toMatchObject([{ who: 'address 127.0.0.1', reason: 'rate limited: connect', count: attempts + 1 }]);
    // Besides the one socket let in (its connection and end) and the logout's request: the summary alone.
    const expected = new Set(['socket connected', 'socket disconnected', 'request completed']);
    expect(written.filter((line) => !expected.has(line.msg ?? '')).map((line) => line.msg)).toEqual(['refused']);
  });
});

describe('the refusal summary', () => {
  const logged: { fields: Record<string, unknown>; msg: string }[] = [];
  const log = { info: (fields: Record<string, unknown>, msg: string) => logged.push({ fields, msg }) } as unknown as FastifyBaseLogger;

  it('lists at most maxKeys callers an interval and folds the rest into one line', () => {
    logged.length = 0;
    const refusals = createRefusalLog(log, { intervalMs: 60_000 });
    for (let i = 0; i < 1_000; i++) for (let n = 0; n < 3; n++) refusals.count(`address 10.0.${i >> 8}.${i & 255}`, '401 GET /api/accounts/info', 'x'.repeat(10_000));
    refusals.stop();
    expect(logged).toHaveLength(REFUSAL_LOG_MAX_KEYS + 1);
    expect(logged.at(-1)).toMatchObject({ fields: { keys: 1_000 - REFUSAL_LOG_MAX_KEYS, count: 3 * (1_000 - REFUSAL_LOG_MAX_KEYS) } });
    // Samples are cut short: a line stays small whatever the caller sent.
    for (const { fields } of logged) expect(JSON.stringify(fields).length).toBeLessThan(400);
  });

  it('starts each interval afresh', () => {
    logged.length = 0;
    const refusals = createRefusalLog(log, { intervalMs: 60_000 });
    refusals.count('account 1', 'refused send');
    refusals.flush();
    refusals.flush();
    refusals.count('account 1', 'refused send');
    refusals.stop();
    expect(logged.map(({ fields }) => fields.count)).toEqual([1, 1]);
  });
});
