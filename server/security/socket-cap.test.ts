// The cap on one user's sockets: past it the oldest is disconnected, on one node (its own count)
// and across two nodes sharing a real redis-server, where a dead node's sockets stop counting.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type ThrowawayRedis } from '../../testing/redis';
import { delay, waitUntil } from '../../testing/wait';
import { createServer, type ParleyServer } from '../app';
import type { FirebaseTokenVerifier } from '../auth/firebase-verifier';
import { openDatabase, type Database } from '../db/engine/open-database';
import { seedUsers, type SeededUser } from '../../testing/seed';
import { connectRedis } from '../realtime/redis-adapter';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { signIn } from '../test/helpers';
import { connectSocket, nextEvent, type ClientSocket } from '../test/socket-client';
import { createRedisSocketCap } from './socket-cap';

const CAP = 2;
const open: ClientSocket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});
async function tab(url: string, bearer: string): Promise<ClientSocket> {
  const socket = await connectSocket(url, bearer);
  open.push(socket);
  return socket;
}
/** Resolves with the reason once the socket is disconnected. */
const disconnected = (socket: ClientSocket) => nextEvent<string>(socket, 'disconnect');
/** Two round trips to the server: long enough for an eviction it was going to make to arrive. */
async function settled(socket: ClientSocket): Promise<void> {
  for (let i = 0; i < 2; i += 1) await socket.timeout(5_000).emitWithAck('sync_account', {});
}

describe('one node', () => {
  let t: ConfiguredTestServer;
  beforeAll(async () => {
    t = await startConfiguredServer({ config: { maxSocketsPerUser: CAP } });
  });
  afterAll(() => t.close());

  it('disconnects the oldest socket past the cap, never the new one, and no one else’s', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const first = await tab(t.url, alice.bearer);
    const second = await tab(t.url, alice.bearer);
    const bobs = [await tab(t.url, bob.bearer), await tab(t.url, bob.bearer)];
    const firstGone = disconnected(first);
    const third = await tab(t.url, alice.bearer);
    expect(await firstGone).toBe('io server disconnect');
    await settled(third);
    expect([second.connected, third.connected, ...bobs.map((socket) => socket.connected)]).toEqual([true, true, true, true]);

    // A socket that closes frees its place: the next one evicts nobody.
    const secondId = second.id;
    second.close();
    await waitUntil(() => !t.server.io.sockets.sockets.has(secondId ?? ''), { timeoutMs: 5_000, what: 'the server to see the close' });
    const fourth = await tab(t.url, alice.bearer);
    await settled(fourth);
    expect([third.connected, fourth.connected]).toEqual([true, true]);
  });
});

describe('two nodes sharing Redis', () => {
  const verifier: FirebaseTokenVerifier = { verifyIdToken: () => Promise.reject(new Error('not used')), accountStatus: () => Promise.resolve('active') };
  let dir: string;
  let redis: ThrowawayRedis;
  let database: Database;
  const nodes: { server: ParleyServer; url: string }[] = [];
  let users: SeededUser[];
  const clients: Redis[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-socket-cap-'));
    redis = await startRedis(path.join(dir, 'redis'));
    database = await openDatabase({ pgliteDir: 'memory' });
    users = await seedUsers(database.db, { count: 3, prefix: 'cap' });
    for (let i = 0; i < 2; i += 1) {
      const server = createServer({
        config: { port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir: dir, maxSocketsPerUser: CAP, shedEventLoopDelayMs: 0 },
        db: { db: database.db, close: async () => {} },
        verifier,
        redis: await connectRedis(redis.url),
      });
      const { port } = await server.listen();
      nodes.push({ server, url: `http://127.0.0.1:${port}` });
    }
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    for (const node of nodes) await node.server.close();
    await database?.close();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the cap across nodes: the oldest socket goes, whichever node holds it', async () => {
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const bearer = `Bearer ${users[0]!.token}`;
    const onA = await tab(a.url, bearer);
    const onB = await tab(b.url, bearer);
    const onAGone = disconnected(onA);
    const secondOnA = await tab(a.url, bearer);
    expect(await onAGone).toBe('io server disconnect');
    const onBGone = disconnected(onB);
    const secondOnB = await tab(b.url, bearer);
    // Evicted by node B's admission, though it lives on node A... and now the other way round.
    expect(await onBGone).toBe('io server disconnect');
    await settled(secondOnB);
    expect([secondOnA.connected, secondOnB.connected]).toEqual([true, true]);
  });

  it('stops counting the sockets of a node that died once they are stale', async () => {
    const connect = async () => {
      const client = new Redis(redis.url, { enableOfflineQueue: false, lazyConnect: true });
      clients.push(client);
      await client.connect();
      return client;
    };
    const log = Fastify({ logger: false }).log;
    const options = { cap: CAP, log, heartbeatMs: 100, staleMs: 1_500 };
    const [nodeA, nodeB] = [createRedisSocketCap(await connect(), options), createRedisSocketCap(await connect(), options)];
    const user = users[1]!.id;
    expect(await nodeA.admit(user, 'a1')).toEqual([]);
    expect(await nodeA.admit(user, 'a2')).toEqual([]);
    // Node A alive: B's new socket pushes A's oldest out.
    expect(await nodeB.admit(user, 'b1')).toEqual(['a1']);
    // Node A dies: no release, no more heartbeats. Once its socket is stale it no longer counts.
    nodeA.close();
    await delay(2_000);
    expect(await nodeB.admit(user, 'b2')).toEqual([]);
    expect(await nodeB.admit(user, 'b3')).toEqual(['b1']);
    nodeB.close();
  });
});
