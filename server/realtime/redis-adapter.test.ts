// Two nodes in one process, one database, one real redis-server: what one node broadcasts reaches
// sockets on the other, and a Redis restart mid-traffic neither crashes a node nor stops delivery.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type ThrowawayRedis } from '../../testing/redis';
import { waitUntil } from '../../testing/wait';
import type { Ack, InitPayload, ConversationMessage } from '../../lib/contract';
import { createServer, type ParleyServer } from '../app';
import type { FirebaseTokenVerifier } from '../auth/firebase-verifier';
import { openDatabase, type Database } from '../db/engine/open-database';
import { seedUsers, type SeededUser } from '../../testing/seed';
import { connectSocket, emitWithAck, sendAccepted, type ClientSocket } from '../test/socket-client';
import { connectRedis, retryDelay } from './redis-adapter';

// Every session here is seeded: nothing signs in, and every account is in good standing.
const verifier: FirebaseTokenVerifier = {
  verifyIdToken: () => Promise.reject(new Error('not used')),
  accountStatus: () => Promise.resolve('active'),
};

let dir: string;
let redis: ThrowawayRedis;
let database: Database;
const nodes: { server: ParleyServer; url: string }[] = [];
const sockets: ClientSocket[] = [];
let alice: SeededUser;
let bob: SeededUser;

async function startNode(shared: Database): Promise<{ server: ParleyServer; url: string }> {
  const server = createServer({
    config: { port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir: dir },
    // Both nodes use the one database; the test closes it once, at the end.
    db: { db: shared.db, close: async () => {} },
    verifier,
    redis: await connectRedis(redis.url),
  });
  const { port } = await server.listen();
  return { server, url: `http://127.0.0.1:${port}` };
}

async function openTab(url: string, user: SeededUser): Promise<ClientSocket> {
  const socket = await connectSocket(url, `Bearer ${user.token}`);
  sockets.push(socket);
  const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', { id: user.id });
  if (!('data' in ack)) throw new Error(`init failed: ${JSON.stringify(ack)}`);
  return socket;
}

async function readiness(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/api/ready`);
  return { status: response.status, body: await response.json() };
}

/** Resolves with the first `message` whose text is `text`. */
function receive(socket: ClientSocket, text: string): Promise<ConversationMessage> {
  return new Promise((resolve) => {
    const listener = (message: ConversationMessage) => {
      if (message.text !== text) return;
      socket.off('message', listener);
      resolve(message);
    };
    socket.on('message', listener);
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-redis-'));
  redis = await startRedis(path.join(dir, 'redis'));
  database = await openDatabase({ pgliteDir: 'memory' });
  [alice, bob] = (await seedUsers(database.db, { count: 2, prefix: `redis-${randomUUID().slice(0, 8)}` })) as [SeededUser, SeededUser];
  nodes.push(await startNode(database), await startNode(database));
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const node of nodes) await node.server.close();
  await database?.close();
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Redis adapter', () => {
  it('delivers a message sent on one node to the recipient connected to the other', async () => {
    const [first, second] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const [aliceTab, bobTab] = await Promise.all([openTab(first.url, alice), openTab(second.url, bob)]);
    const received = receive(bobTab, 'across nodes');
    const sent = await sendAccepted(aliceTab, bob, 'across nodes');
    expect((await received).id).toBe(sent.id);
  });

  it('survives Redis restarting mid-traffic: the nodes stay up and cross-node delivery resumes', async () => {
    const [first, second] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const [aliceTab, bobTab] = await Promise.all([openTab(first.url, alice), openTab(second.url, bob)]);

    await redis.kill();
    // Storing and acknowledging do not need Redis; the broadcast waits in ioredis' offline queue.
    const duringOutage = receive(bobTab, 'while Redis was down');
    const queued = await sendAccepted(aliceTab, bob, 'while Redis was down');
    // Meanwhile the nodes tell the load balancer they are not ready.
    for (const node of nodes) expect(await readiness(node.url)).toEqual({ status: 503, body: { msg: 'Redis unreachable.' } });
    await redis.start();

    expect((await duringOutage).id).toBe(queued.id);
    const afterwards = receive(bobTab, 'after the restart');
    const sent = await sendAccepted(aliceTab, bob, 'after the restart');
    expect((await afterwards).id).toBe(sent.id);
    // Both nodes are up and ready again.
    for (const node of nodes) {
      await waitUntil(async () => (await readiness(node.url)).status === 200, { timeoutMs: 10_000, what: 'ready again' });
    }
  });

  it('reconnects at most about a second after each attempt (ioredis backs off to 5 s by default)', () => {
    expect(retryDelay(1)).toBeLessThan(100);
    for (const attempt of [5, 10, 100]) expect(retryDelay(attempt)).toBeLessThanOrEqual(1_050);
  });

  it('refuses to start when Redis does not answer, naming the reason', async () => {
    const nobody = `redis://127.0.0.1:1`;
    await expect(connectRedis(nobody, { connectTimeoutMs: 1_000 })).rejects.toThrow(/not reachable.*ECONNREFUSED/s);
  });
});
