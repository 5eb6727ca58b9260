import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * How many sockets one user may hold at once, across nodes. Past the cap the user's OLDEST sockets
 * are disconnected, never the new one: the newest tab is the one in front of the person, and the
 * client does not reconnect after a server disconnect, so two tabs never take turns evicting each
 * other (docs/DECISIONS.md, "Hostile input").
 */
export interface SocketCap {
  /** Counts a connected socket; resolves with the ids of the user's sockets to disconnect. */
  admit(userId: number, socketId: string): Promise<string[]>;
  /** The socket is gone. */
  release(userId: number, socketId: string): void;
  /** Stops the heartbeat (the server is closing). */
  close(): void;
}

export interface SocketCapOptions {
  cap: number;
  log: FastifyBaseLogger;
  /** How often this node re-stamps its sockets in Redis. */
  heartbeatMs?: number;
  /** A socket not re-stamped for this long belonged to a node that died: it no longer counts. */
  staleMs?: number;
}

const HEARTBEAT_MS = 10_000;
const STALE_MS = 3 * HEARTBEAT_MS;
const KEY_PREFIX = 'parley:sockets:';

/** This node's sockets per user, in the order they connected (a Map keeps insertion order). */
class LocalSockets {
  private readonly byUser = new Map<number, Set<string>>();

  add(userId: number, socketId: string): void {
    const sockets = this.byUser.get(userId) ?? new Set<string>();
    this.byUser.set(userId, sockets.add(socketId));
  }

  remove(userId: number, socketId: string): void {
    const sockets = this.byUser.get(userId);
    if (sockets?.delete(socketId) && sockets.size === 0) this.byUser.delete(userId);
  }

  /** The oldest sockets past the cap; they stay counted until they really disconnect. */
  excess(userId: number, cap: number): string[] {
    const sockets = [...(this.byUser.get(userId) ?? [])];
    return sockets.slice(0, Math.max(0, sockets.length - cap));
  }
}

/** One node: the count is this process's. */
export function createLocalSocketCap({ cap }: Pick<SocketCapOptions, 'cap'>): SocketCap {
  const local = new LocalSockets();
  return {
    admit: async (userId, socketId) => {
      local.add(userId, socketId);
      return local.excess(userId, cap);
    },
    release: (userId, socketId) => local.remove(userId, socketId),
    close: () => {},
  };
}

/**
 * Registers a socket in its user's sorted set and evicts the oldest past the cap, atomically (two
 * nodes admitting at once cannot both miss the overflow). Members are "<connected at, ms, 15
 * digits>:<socket id>", so sorting them sorts by age; scores are the last heartbeat. Times are
 * Redis's own clock, so nodes' clocks need not agree.
 * KEYS[1]: the user's set. ARGV: socket id, stale after (ms), cap, key TTL (ms). Returns the evicted socket ids.
 */
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))
redis.call('ZADD', KEYS[1], now, string.format('%015d', now) .. ':' .. ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local excess = #members - tonumber(ARGV[3])
local evicted = {}
if excess <= 0 then return evicted end
table.sort(members)
for i = 1, excess do
  redis.call('ZREM', KEYS[1], members[i])
  evicted[i] = string.sub(members[i], 17)
end
return evicted`;

/** Re-stamps this node's sockets of one user (re-adding them after a Redis restart lost the set). KEYS[1]; ARGV: TTL, socket ids. */
const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local known = {}
for _, member in ipairs(members) do known[string.sub(member, 17)] = member end
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now, known[ARGV[i]] or (string.format('%015d', now) .. ':' .. ARGV[i]))
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

/** KEYS[1]; ARGV[1]: socket id. */
const RELEASE_SCRIPT = `
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(member, 17) == ARGV[1] then redis.call('ZREM', KEYS[1], member) end
end
return 0`;

/**
 * Several nodes: the count lives in Redis, one sorted set per user, so the cap holds however the
 * balancer spreads a user's tabs. Each node re-stamps its own sockets every heartbeat; members of
 * a node that died stop being re-stamped and are dropped once stale, so a killed node's sockets
 * stop counting within `staleMs`. While Redis is away the cap falls back to this node's count.
 */
export function createRedisSocketCap(
  redis: Redis,
  { cap, log, heartbeatMs = HEARTBEAT_MS, staleMs = STALE_MS }: SocketCapOptions,
): SocketCap {
  const local = new LocalSockets();
  const mine = new Map<number, Set<string>>();
  // A release that arrives while its admit is still in Redis must follow it, or the member stays behind.
  const admitting = new Map<string, Promise<unknown>>();
  const ttlMs = 2 * staleMs;
  const key = (userId: number) => `${KEY_PREFIX}${userId}`;

  const heartbeat = setInterval(() => {
    if (mine.size === 0) return;
    const pipeline = redis.pipeline();
    for (const [userId, sockets] of mine) pipeline.eval(HEARTBEAT_SCRIPT, 1, key(userId), ttlMs, ...sockets);
    pipeline.exec().catch((error: unknown) => log.warn({ err: error }, 'socket cap heartbeat failed'));
  }, heartbeatMs);
  heartbeat.unref();

  return {
    async admit(userId, socketId) {
      local.add(userId, socketId);
      const sockets = mine.get(userId) ?? new Set<string>();
      mine.set(userId, sockets.add(socketId));
      const admitted = redis.eval(ADMIT_SCRIPT, 1, key(userId), socketId, staleMs, cap, ttlMs) as Promise<string[]>;
      admitting.set(socketId, admitted.catch(() => undefined));
      try {
        return await admitted;
      } catch (error) {
        log.warn({ err: error }, 'socket cap: redis unavailable, counting this node only');
        return local.excess(userId, cap);
      } finally {
        admitting.delete(socketId);
      }
    },
    release(userId, socketId) {
      local.remove(userId, socketId);
      const sockets = mine.get(userId);
      if (sockets?.delete(socketId) && sockets.size === 0) mine.delete(userId);
      void (admitting.get(socketId) ?? Promise.resolve())
        .then(() => redis.eval(RELEASE_SCRIPT, 1, key(userId), socketId))
        // Not fatal: the member goes stale and is dropped within staleMs.
        .catch((error: unknown) => log.debug({ err: error }, 'socket cap release failed'));
    },
    close: () => clearInterval(heartbeat),
  };
}
