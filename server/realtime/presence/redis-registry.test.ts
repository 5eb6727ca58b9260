// The shared presence registry against a real redis-server: two "nodes" (two registries, each with
// its own client, as two processes would have), with short timings.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type ThrowawayRedis } from '../../../testing/redis';
import { waitUntil } from '../../../testing/wait';
import { createRedisRegistry } from './redis-registry';
import type { PresenceRegistry, RegistryHooks } from './registry';

const TIMING = { heartbeatMs: 100, ttlMs: 400 };
let dir: string;
let redis: ThrowawayRedis;
const clients: Redis[] = [];
const registries: PresenceRegistry[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-presence-redis-'));
  redis = await startRedis(dir);
});
afterEach(async () => {
  for (const registry of registries.splice(0)) registry.close();
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(async () => {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Node {
  registry: PresenceRegistry;
  expired: { userId: number; at: Date }[];
  lost: number;
}

function node(name: string): Node {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  const registry = createRedisRegistry(client, name, TIMING);
  registries.push(registry);
  const seen: Node = { registry, expired: [], lost: 0 };
  const hooks: RegistryHooks = { expired: (users) => seen.expired.push(...users), lost: () => void seen.lost++ };
  registry.start(hooks);
  return seen;
}

let nextUser = 1;
const newUser = () => nextUser++;

describe('Redis presence registry', () => {
  it('says online while any node holds the user, offline when the last lets go', async () => {
    const [a, b] = [node('a1'), node('b1')];
    const ann = newUser();
    expect(await a.registry.add(ann)).toBe(true);
    expect(await b.registry.add(ann)).toBe(false);
    expect(await b.registry.online([ann, newUser()])).toEqual(new Set([ann]));
    expect(await a.registry.remove(ann)).toBe(false);
    expect(await a.registry.online([ann])).toEqual(new Set([ann]));
    expect(await b.registry.remove(ann)).toBe(true);
    expect(await a.registry.online([ann])).toEqual(new Set());
    expect(await a.registry.registered()).toEqual([]);
  });

  it('takes a dead node’s users offline (unless another node holds them), once, as last seen at its last heartbeat', async () => {
    const [dying, b, c] = [node('dying'), node('b2'), node('c2')];
    const [ann, ben] = [newUser(), newUser()];
    await dying.registry.add(ann);
    await dying.registry.add(ben);
    await b.registry.add(ben);
    const diedAt = Date.now();
    dying.registry.close(); // no more heartbeats: what SIGKILL leaves behind
    await waitUntil(() => b.expired.length + c.expired.length > 0, { timeoutMs: 5_000, what: 'the dead node swept' });
    const swept = [...b.expired, ...c.expired];
    expect(swept.map(({ userId }) => userId)).toEqual([ann]);
    expect(swept[0]!.at.getTime()).toBeLessThanOrEqual(diedAt);
    expect(swept[0]!.at.getTime()).toBeGreaterThan(diedAt - 2_000);
    // Swept once: nobody reports it again.
    await new Promise((resolve) => setTimeout(resolve, TIMING.ttlMs));
    expect(b.expired.length + c.expired.length).toBe(1);
    expect(await b.registry.online([ann, ben])).toEqual(new Set([ben]));
  });

  it('asks a node to register again when Redis forgot it', async () => {
    const a = node('a3');
    const ann = newUser();
    await a.registry.add(ann);
    const admin = new Redis(redis.url);
    clients.push(admin);
    await admin.flushall();
    await waitUntil(() => a.lost > 0, { timeoutMs: 5_000, what: 'the node told it was lost' });
    expect(await a.registry.online([ann])).toEqual(new Set());
    expect(await a.registry.add(ann)).toBe(true);
    expect(await a.registry.online([ann])).toEqual(new Set([ann]));
  });
});
