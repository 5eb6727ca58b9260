import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** `burst` actions at once, then `perSecond` on average. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * Every budget. `event` is what every socket event and `request` what every authenticated HTTP
 * request takes from when it has no stricter budget of its own, so an event or a route added
 * later is limited without a line of code (docs/DECISIONS.md, "Hostile input"). Most are per
 * user; `follow_pair` is per follower and followee; `signup` and `download` are per client
 * address (ADDRESS_RATE_LIMITS).
 */
export const RATE_LIMIT_NAMES = ['send', 'follow', 'follow_pair', 'sync', 'page', 'search', 'upload', 'export', 'typing', 'presence', 'profile', 'report', 'event', 'connect', 'request', 'signup', 'download'] as const;
/** The budgets keyed by the client's address (a request before or without an account). */
export const ADDRESS_RATE_LIMITS = ['signup', 'download'] as const satisfies readonly RateLimitName[];
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];
/** The environment variable that sets a budget (config.ts): RATE_LIMIT_SEND, RATE_LIMIT_FOLLOW_PAIR, … */
export type RateLimitVar<Name extends RateLimitName = RateLimitName> = `RATE_LIMIT_${Uppercase<Name>}`;
export const rateLimitVar = <Name extends RateLimitName>(name: Name) => `RATE_LIMIT_${name.toUpperCase()}` as RateLimitVar<Name>;

/** `null` switches a budget off (benchmarks, load generators). */
export type RateLimits = Record<RateLimitName, RateLimit | null>;

type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes `points` (default 1) for `key` (a user id, or an address), or says how long until they are available. */
  take(key: number | string, points?: number): Promise<RateVerdict>;
}

export type RateLimiters = Record<RateLimitName, RateLimiter>;

/** The refusal both transports give: `msg`, which the client's outbox treats as transient and retries. */
export const tooManyRequests = (retryAfterSeconds: number) => ({
  msg: `Too many requests. Try again in ${retryAfterSeconds} s.`,
});

/** How a read that says how much it wants (its `limit`) is priced: costOfLimit. */
export interface LimitPricing {
  /** Items when it gives no limit. */
  absent: number;
  /** The most it may ask for; a limit it will be refused for pays for this many. */
  max: number;
  /** Items per point. */
  unit: number;
}

/**
 * What a read takes from its budget, decided by its `limit` (a number, or a query string's
 * digits) before anything is read: one point per `unit` items it may read. A limit its handler
 * will refuse pays for the largest read: it is refused for its rate first, then its shape.
 */
export function costOfLimit(raw: unknown, { absent, max, unit }: LimitPricing): number {
  const limit = raw === undefined ? absent : typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
  const items = typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= max ? limit : max;
  return Math.ceil(items / unit);
}

const ALLOWED: RateVerdict = { allowed: true };
const unlimited: RateLimiter = { take: async () => ALLOWED };
const KEY_PREFIX = 'parley:rate';

/**
 * A bucket as rate-limiter-flexible's fixed windows: a steady window of `points` per `duration`
 * (the rate, in whole seconds), plus a burst window holding the rest of the burst, refilled over
 * the time the whole burst takes at that rate. E.g. 5/s, burst 50: 5 per second, plus 45 per 10 s.
 */
export function windowsOf({ perSecond, burst }: RateLimit): { steady: Window; extra: Window | null } {
  if (!(perSecond > 0) || !(burst >= 1)) throw new RangeError('A rate limit needs perSecond > 0 and burst >= 1.');
  const points = Math.min(Math.floor(burst), Math.max(1, Math.floor(perSecond)));
  const steady = { points, duration: Math.max(1, Math.round(points / perSecond)) };
  const rest = Math.floor(burst) - points;
  return { steady, extra: rest > 0 ? { points: rest, duration: Math.max(1, Math.ceil(burst / perSecond)) } : null };
}

interface Window {
  points: number;
  duration: number;
}

/**
 * With Redis, a window is counted there (one atomic script per action), so every node takes from
 * the same budget. A key found over its limit is then refused from memory until its window ends,
 * so a flood costs Redis nothing. While Redis is away (rejectIfRedisNotReady: no waiting in a
 * queue), an in-memory insurance window of the same size takes over, per node.
 */
function windowLimiter(name: string, window: Window, redis: Redis | undefined) {
  const options = { keyPrefix: `${KEY_PREFIX}:${name}`, points: window.points, duration: window.duration };
  if (!redis) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    inMemoryBlockOnConsumed: window.points,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

function limiterFor(name: RateLimitName, limit: RateLimit, redis: Redis | undefined): RateLimiter {
  const { steady, extra } = windowsOf(limit);
  const main = windowLimiter(name, steady, redis);
  const consumer = extra ? new BurstyRateLimiter(main, windowLimiter(`${name}:burst`, extra, redis)) : main;
  return {
    async take(key, points = 1) {
      try {
        await consumer.consume(String(key), points);
        return ALLOWED;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}

/**
 * A refusal answered only after `holdMs` (or the caller's retry time, if sooner): a caller past
 * its budget that asks again the moment it is refused gets one refusal per hold instead of as
 * many as the server can answer, which is what made one account's flood slow everyone else
 * (docs/DECISIONS.md, "One account's flood costs that account"). Allowed actions are not held.
 */
function holdingRefusals(limiter: RateLimiter, holdMs: number): RateLimiter {
  return {
    async take(key, points) {
      const verdict = await limiter.take(key, points);
      if (!verdict.allowed) await new Promise((resolve) => setTimeout(resolve, Math.min(holdMs, verdict.retryAfterSeconds * 1000)));
      return verdict;
    },
  };
}

export interface RateLimitersOptions {
  /** Shared by every node. */
  redis?: Redis;
  /** How long a refusal is held before it is answered (holdingRefusals); 0: at once. */
  holdRefusalsMs?: number;
}

/** One limiter per budget; a switched-off budget gets one that always allows. With `redis`, shared by every node. */
export function createRateLimiters(limits: RateLimits, { redis, holdRefusalsMs = 0 }: RateLimitersOptions = {}): RateLimiters {
  const entries = RATE_LIMIT_NAMES.map((name) => {
    const limit = limits[name];
    if (!limit) return [name, unlimited] as const;
    const limiter = limiterFor(name, limit, redis);
    return [name, holdRefusalsMs > 0 ? holdingRefusals(limiter, holdRefusalsMs) : limiter] as const;
  });
  return Object.fromEntries(entries) as RateLimiters;
}
