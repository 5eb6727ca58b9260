// The presence registry shared by several nodes, in Redis (docs/DEPLOY.md, "Presence"):
//   parley:presence:nodes          sorted set: node id → when the node counts as dead (ms)
//   parley:presence:user:<user>    set: the nodes holding a tab of that user
//   parley:presence:node:<node>    set: the users that node holds (to clean up after it)
// A user is online while one of their nodes is alive. Each node heartbeats its own entry only
// (one write per interval, however many users it holds); a node that stops (SIGKILL, a lost
// machine) is swept by the first other node to see its entry expired, which takes its users
// offline unless another node holds them. Every step is a Lua script: atomic, so two nodes never
// both sweep one dead node, and "came online" / "went offline" are decided once.
import type { Redis } from 'ioredis';
import type { PresenceRegistry, RegistryHooks } from './registry';

const PREFIX = 'parley:presence:';
const NODES = `${PREFIX}nodes`;
const userKey = (userId: number) => `${PREFIX}user:${userId}`;
const nodeKey = (node: string) => `${PREFIX}node:${node}`;

export interface RedisRegistryTiming {
  /** How often a node renews its entry and sweeps dead ones. */
  heartbeatMs: number;
  /** How long an entry lives unrenewed: a dead node's users go offline within ttlMs + heartbeatMs. */
  ttlMs: number;
}

export const DEFAULT_REDIS_REGISTRY_TIMING: RedisRegistryTiming = { heartbeatMs: 5_000, ttlMs: 15_000 };

const ALIVE = `
local function alive(nodes, user, now)
  for _, node in ipairs(redis.call('SMEMBERS', user)) do
    local expiry = redis.call('ZSCORE', nodes, node)
    if expiry and tonumber(expiry) > now then return true end
  end
  return false
end
`;

const SCRIPTS = {
  // KEYS: nodes, user, node; ARGV: node id, user id, now. 1: nobody held the user before.
  presenceAdd: `${ALIVE}
local before = alive(KEYS[1], KEYS[2], tonumber(ARGV[3]))
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[2])
if before then return 0 end
return 1`,
  // KEYS: nodes, user, node; ARGV: node id, user id, now. 1: no live node holds the user now.
  presenceRemove: `${ALIVE}
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[2])
if alive(KEYS[1], KEYS[2], tonumber(ARGV[3])) then return 0 end
return 1`,
  // KEYS: nodes, user…; ARGV: now. One 0/1 per user.
  presenceOnline: `${ALIVE}
local now = tonumber(ARGV[1])
local result = {}
for i = 2, #KEYS do result[#result + 1] = alive(KEYS[1], KEYS[i], now) and 1 or 0 end
return result`,
  // KEYS: nodes; ARGV: now, ttl, key prefix. Sweeps every expired node; returns user, last seen (ms)…
  presenceSweep: `${ALIVE}
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
local out = {}
for i = 1, #dead, 2 do
  local node = dead[i]
  local lastBeat = string.format('%.0f', tonumber(dead[i + 1]) - ttl)
  redis.call('ZREM', KEYS[1], node)
  local held = ARGV[3] .. 'node:' .. node
  for _, user in ipairs(redis.call('SMEMBERS', held)) do
    local key = ARGV[3] .. 'user:' .. user
    redis.call('SREM', key, node)
    if not alive(KEYS[1], key, now) then
      out[#out + 1] = user
      out[#out + 1] = lastBeat
    end
  end
  redis.call('DEL', held)
end
return out`,
} as const;

type ScriptName = keyof typeof SCRIPTS;
type ScriptCaller = (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<unknown>;

export function createRedisRegistry(client: Redis, nodeId: string, timing: RedisRegistryTiming = DEFAULT_REDIS_REGISTRY_TIMING): PresenceRegistry {
  for (const [name, lua] of Object.entries(SCRIPTS)) {
    // Defined once per client (EVALSHA, falling back to EVAL after a Redis restart forgot them).
    if (!(name in client)) client.defineCommand(name, { lua });
  }
  const run = (name: ScriptName, keys: string[], args: (string | number)[]) =>
    (client as unknown as Record<ScriptName, ScriptCaller>)[name](keys.length, ...keys, ...args);

  let hooks: RegistryHooks | null = null;
  let timer: NodeJS.Timeout | undefined;
  // The first heartbeat: until this node's entry exists, its users would not count as online.
  let firstBeat: Promise<void> | null = null;
  let beats = 0;
  // A write failed (Redis away): this node's entries may be wrong; the next heartbeat redoes them.
  let dirty = false;

  async function beat(): Promise<void> {
    const now = Date.now();
    const first = beats++ === 0;
    try {
      const added = Number(await client.zadd(NODES, now + timing.ttlMs, nodeId));
      // Our entry was gone (Redis restarted empty, or another node swept us for dead while we were
      // stalled): our users' entries went with it. The first beat always adds it; nothing held yet.
      if ((added === 1 && !first) || dirty) {
        dirty = false;
        hooks?.lost();
      }
      const swept = (await run('presenceSweep', [NODES], [now, timing.ttlMs, PREFIX])) as string[];
      const expired: { userId: number; at: Date }[] = [];
      for (let i = 0; i + 1 < swept.length; i += 2) expired.push({ userId: Number(swept[i]), at: new Date(Number(swept[i + 1])) });
      if (expired.length > 0) hooks?.expired(expired);
    } catch {
      // Redis is away (the server logs the outage once); redo our entries when it answers again.
      dirty = true;
    }
  }

  async function ready(): Promise<void> {
    if (firstBeat) await firstBeat;
  }

  /** Registry writes that failed leave the node dirty; the next heartbeat registers it again. */
  async function write<T>(work: () => Promise<T>): Promise<T> {
    await ready();
    try {
      return await work();
    } catch (error) {
      dirty = true;
      throw error;
    }
  }

  return {
    add: (userId) => write(async () => Number(await run('presenceAdd', [NODES, userKey(userId), nodeKey(nodeId)], [nodeId, userId, Date.now()])) === 1),
    remove: (userId) =>
      write(async () => Number(await run('presenceRemove', [NODES, userKey(userId), nodeKey(nodeId)], [nodeId, userId, Date.now()])) === 1),
    online: async (userIds) => {
      await ready();
      if (userIds.length === 0) return new Set();
      const flags = (await run('presenceOnline', [NODES, ...userIds.map(userKey)], [Date.now()])) as number[];
      return new Set(userIds.filter((_, index) => Number(flags[index]) === 1));
    },
    registered: async () => (await client.smembers(nodeKey(nodeId))).map(Number),
    start(startHooks) {
      hooks = startHooks;
      firstBeat = beat();
      timer = setInterval(() => void beat(), timing.heartbeatMs);
      timer.unref();
    },
    close() {
      clearInterval(timer);
      hooks = null;
    },
  };
}
