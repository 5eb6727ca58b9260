// Which users have a tab in view: each socket reports `visibility {visible}` and a push is sent only
// to users with none. With several nodes (REDIS_URL) the sockets of one user sit on different
// nodes, so the count lives in Redis; with one node, in this process.
import type { Redis } from 'ioredis';

export interface VisibilityTracker {
  /** The socket reported its tab visible or hidden. */
  set(socketId: string, userId: number, visible: boolean): Promise<void>;
  /** The socket is gone. */
  remove(socketId: string, userId: number): Promise<void>;
  /** Some socket of the user, on any node, reports a visible tab. */
  anyVisible(userId: number): Promise<boolean>;
  close(): Promise<void>;
}

export function createMemoryVisibility(): VisibilityTracker {
  const visible = new Map<number, Set<string>>();
  const remove = async (socketId: string, userId: number) => {
    const sockets = visible.get(userId);
    sockets?.delete(socketId);
    if (sockets?.size === 0) visible.delete(userId);
  };
  return {
    async set(socketId, userId, isVisible) {
      if (!isVisible) return remove(socketId, userId);
      const sockets = visible.get(userId) ?? new Set<string>();
      sockets.add(socketId);
      visible.set(userId, sockets);
    },
    remove,
    anyVisible: async (userId) => (visible.get(userId)?.size ?? 0) > 0,
    close: async () => visible.clear(),
  };
}

/**
 * An entry lives this long unless its node refreshes it: a node that dies (kill -9, lost network)
 * cannot remove its sockets' entries, and for at most this long after, their users get no push.
 */
const VISIBLE_TTL_MS = 60_000;
/** How often a node renews the entries of its visible sockets: a third of the lifetime, so one missed renewal loses nothing. */
const VISIBLE_REFRESH_MS = 20_000;

const keyOf = (userId: number) => `parley:visible:${userId}`;

/**
 * One sorted set per user in Redis: member = socket id, score = when the entry expires. A user is
 * visible while any member's score is in the future. Each node renews its own visible sockets'
 * entries every VISIBLE_REFRESH_MS and removes them when they hide or disconnect.
 */
export function createRedisVisibility(redis: Redis, { ttlMs = VISIBLE_TTL_MS, refreshMs = VISIBLE_REFRESH_MS } = {}): VisibilityTracker {
  const local = new Map<string, number>();
  const add = (pipeline: ReturnType<Redis['pipeline']>, socketId: string, userId: number) =>
    pipeline.zadd(keyOf(userId), Date.now() + ttlMs, socketId).pexpire(keyOf(userId), ttlMs);
  const refresh = setInterval(() => {
    if (local.size === 0) return;
    const pipeline = redis.pipeline();
    for (const [socketId, userId] of local) add(pipeline, socketId, userId);
    // A Redis outage is logged by the adapter's link; the next renewal puts the entries back.
    pipeline.exec().catch(() => undefined);
  }, refreshMs);
  refresh.unref();

  const remove = async (socketId: string, userId: number) => {
    local.delete(socketId);
    await redis.zrem(keyOf(userId), socketId);
  };
  return {
    async set(socketId, userId, visible) {
      if (!visible) return remove(socketId, userId);
      local.set(socketId, userId);
      await add(redis.pipeline(), socketId, userId).exec();
    },
    remove,
    async anyVisible(userId) {
      return (await redis.zcount(keyOf(userId), Date.now(), '+inf')) > 0;
    },
    async close() {
      clearInterval(refresh);
      if (local.size === 0) return;
      const pipeline = redis.pipeline();
      for (const [socketId, userId] of local) pipeline.zrem(keyOf(userId), socketId);
      local.clear();
      await pipeline.exec().catch(() => undefined);
    },
  };
}
