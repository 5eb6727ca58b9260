// Every authenticated route and every socket event is limited per user, including ones added
// later: the lists below are what the server really registers (as in authorization-matrix.test.ts),
// plus a route and an event this file adds the way a later feature would, with no limiting code
// of their own. Each is called by a fresh user until refused; the probes are never refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ack } from '../../lib/contract';
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema';
import { createSession } from '../db/sessions';
import { seedUsers } from '../../testing/seed';
import { authenticate } from '../http/authenticate';
import { RATE_LIMIT_NAMES, type RateLimits } from '../security/rate-limit';
import { startObservedServer, type ObservedServer } from '../test/observed-server';
import { connectSocket, emitWithAck, type ClientSocket } from '../test/socket-client';

// So slow a refill that nothing comes back during the test: the burst is all there is.
const BURST = 2;
const LIMITS = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, { perSecond: 1 / 3600, burst: BURST }])) as RateLimits;
/** Routes anyone may call, never limited per user (there is no user). */
const PUBLIC_ROUTES = ['POST /api/accounts/authorize', 'GET /api/health', 'HEAD /api/health', 'GET /api/ready', 'HEAD /api/ready', 'GET /api/uploads/:id/:name', 'HEAD /api/uploads/:id/:name'];
const ADDED_ROUTE = '/api/added-later';
const ADDED_EVENT = 'added_later';
const RESERVED_EVENTS = new Set(['disconnect', 'disconnecting', 'error']);
const TOO_MANY = { msg: expect.stringMatching(/^Too many requests\. Try again in \d+ s\.$/) };

let t: ObservedServer;
let prefix = 0;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  t = await startObservedServer({
    logLevel: 'warn',
    rateLimits: LIMITS,
    beforeListen: (server) => {
      server.app.get(ADDED_ROUTE, async (request) => ({ id: (await authenticate(t.db, request)).user.id }));
      server.io.on('connection', (socket) => socket.on(ADDED_EVENT as never, ((_: unknown, ack: (value: unknown) => void) => ack({ data: 'ok' })) as never));
    },
  });
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

/**
 * A user nobody else touches, so each route or event starts from a full budget. Seeded users have
 * no Firebase account: marked as just checked, so the account check (server/auth/account-check.ts)
 * does not end their sessions before the limits are reached.
 */
async function freshUser() {
  const [user] = await seedUsers(t.db, { count: 1, prefix: `limits-${(prefix += 1)}` });
  await t.db.update(users).set({ firebaseCheckedAt: sql`now()` }).where(eq(users.id, user!.id));
  return user!;
}

const registered = () => [...new Set(t.routes.map(({ method, url }) => `${method} ${url}`))];

describe('HTTP', () => {
  it('sees the route a later feature adds', () => {
    expect(registered()).toContain(`GET ${ADDED_ROUTE}`);
  });

  it('refuses every authenticated route past the user’s budget with 429 {msg} and Retry-After', async () => {
    const limited = registered().filter((route) => !PUBLIC_ROUTES.includes(route));
    expect(limited).toEqual(expect.arrayContaining(['GET /api/push/public-key', 'POST /api/push/subscriptions', 'DELETE /api/push/subscriptions']));
    const unlimited: string[] = [];
    for (const route of limited) {
      const [method, pattern] = route.split(' ') as [string, string];
      const user = await freshUser();
      const path = pattern.replace(/:\w+/g, '1');
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let call = 0; call <= BURST; call += 1) {
        // A session of its own per call: logout ends one, yet the budget is the user's.
        const { token } = await createSession(t.db, user.id);
        last = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
        statuses.push(last.status);
      }
      if (last!.status !== 429) unlimited.push(`${route} (${statuses.join(', ')})`);
      else {
        expect(statuses.slice(0, BURST), route).not.toContain(429);
        expect(Number(last!.headers.get('retry-after')), route).toBeGreaterThanOrEqual(1);
        if (method !== 'HEAD') expect(await last!.json(), route).toEqual(TOO_MANY);
      }
    }
    expect(unlimited, 'authenticated routes a user can call without limit').toEqual([]);
  });

  it('never limits the probes', async () => {
    for (let call = 0; call < 10 * BURST; call += 1) {
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
      expect((await fetch(`${t.url}/api/ready`)).status).toBe(200);
    }
  });
});

describe('Socket.IO', () => {
  it('refuses every event the server listens to past the user’s budget, before its handler', async () => {
    const probe = await connectSocket(t.url, `Bearer ${(await freshUser()).token}`);
    sockets.push(probe);
    const server = t.server.io.sockets.sockets.get(probe.id ?? '');
    const events = server!.eventNames().map(String).filter((name) => !RESERVED_EVENTS.has(name));
    expect(events).toEqual(expect.arrayContaining(['init', 'send', 'read', 'follow', 'sync_conversation', 'sync_account', 'visibility', ADDED_EVENT]));

    const unlimited: string[] = [];
    for (const event of events) {
      const socket = await connectSocket(t.url, `Bearer ${(await freshUser()).token}`);
      sockets.push(socket);
      const acks: Ack<unknown>[] = [];
      // A payload no handler accepts: the budget is taken before validation, so it counts all the
      // same. The syncs pay by the reads their limit allows (socket-rate-limit.ts): a limit of 1 is one.
      const payload = event === 'sync_conversation' || event === 'sync_account' ? { limit: 1 } : {};
      for (let call = 0; call <= BURST; call += 1) acks.push(await emitWithAck<Ack<unknown>>(socket, event, payload));
      const refused = acks.at(-1)!;
      if (!('error' in refused) || !('msg' in refused.error) || !/^Too many requests/.test(refused.error.msg)) {
        unlimited.push(`${event} (${JSON.stringify(acks)})`);
      }
      expect(acks.slice(0, BURST).filter((ack) => 'error' in ack && 'msg' in ack.error && /^Too many/.test(ack.error.msg)), event).toEqual([]);
    }
    expect(unlimited, 'socket events a user can send without limit').toEqual([]);
  });
});
