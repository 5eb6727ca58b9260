import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedis, type ThrowawayRedis } from '../../testing/redis';
import { NO_RATE_LIMITS } from '../test/observed-server';
import { createRateLimiters, RATE_LIMIT_NAMES, tooManyRequests, windowsOf, type RateLimiter, type RateLimits } from './rate-limit';

const only = (limit: RateLimits['send']): RateLimits => ({ ...NO_RATE_LIMITS, send: limit });
const takeN = async (limiter: RateLimiter, key: number, n: number) => {
  const verdicts = [];
  for (let i = 0; i < n; i += 1) verdicts.push(await limiter.take(key));
  return verdicts;
};
const allowedCount = async (limiter: RateLimiter, key: number, n: number) =>
  (await takeN(limiter, key, n)).filter((verdict) => verdict.allowed).length;

describe('windowsOf', () => {
  it('splits a bucket into a steady window and the rest of the burst', () => {
    expect(windowsOf({ perSecond: 5, burst: 50 })).toEqual({ steady: { points: 5, duration: 1 }, extra: { points: 45, duration: 10 } });
    expect(windowsOf({ perSecond: 0.5, burst: 20 })).toEqual({ steady: { points: 1, duration: 2 }, extra: { points: 19, duration: 40 } });
    expect(windowsOf({ perSecond: 1 / 3600, burst: 3 })).toEqual({
      steady: { points: 1, duration: 3600 },
      extra: { points: 2, duration: 10_800 },
    });
    // A burst no larger than one steady window needs no second window.
    expect(windowsOf({ perSecond: 20, burst: 10 })).toEqual({ steady: { points: 10, duration: 1 }, extra: null });
  });

  it('refuses a nonsensical limit', () => {
    expect(() => windowsOf({ perSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => windowsOf({ perSecond: 1, burst: 0 })).toThrow(RangeError);
  });
});

describe('in-memory limiters (one node)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows the burst at once, then refuses with the seconds until the next action', async () => {
    vi.useFakeTimers();
    const { send } = createRateLimiters(only({ perSecond: 2, burst: 6 }));
    expect(await allowedCount(send, 7, 10)).toBe(6);
    const refused = await send.take(7);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // One steady window later: the steady rate again, not the burst.
    vi.advanceTimersByTime(1_000);
    expect(await allowedCount(send, 7, 10)).toBe(2);
    // Once the whole burst has had time to refill, all of it again.
    vi.advanceTimersByTime(3_000);
    expect(await allowedCount(send, 7, 10)).toBe(6);
  });

  it('keeps one budget per user and per name', async () => {
    const limiters = createRateLimiters({ ...NO_RATE_LIMITS, send: { perSecond: 1 / 3600, burst: 1 }, follow: { perSecond: 1 / 3600, burst: 1 } });
    expect((await limiters.send.take(1)).allowed).toBe(true);
    expect(await limiters.send.take(1)).toEqual({ allowed: false, retryAfterSeconds: 3600 });
    expect((await limiters.send.take(2)).allowed).toBe(true);
    expect((await limiters.follow.take(1)).allowed).toBe(true);
  });

  it('holds a refusal (holdRefusalsMs, or the retry time if sooner) and answers an allowed action at once', async () => {
    vi.useFakeTimers();
    const { send } = createRateLimiters(only({ perSecond: 1 / 3600, burst: 1 }), { holdRefusalsMs: 1_000 });
    // No timer has to run for an allowed action.
    expect(await send.take(5)).toEqual({ allowed: true });
    let answered = false;
    const refused = send.take(5).then((verdict) => {
      answered = true;
      return verdict;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await refused).toEqual({ allowed: false, retryAfterSeconds: 3600 });

    // A retry time shorter than the hold: the refusal waits only that long.
    const { sync } = createRateLimiters({ ...NO_RATE_LIMITS, sync: { perSecond: 1, burst: 1 } }, { holdRefusalsMs: 5_000 });
    expect((await sync.take(5)).allowed).toBe(true);
    const soon = sync.take(5);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await soon).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('gives a switched-off budget a limiter that always allows', async () => {
    const limiters = createRateLimiters(NO_RATE_LIMITS);
    for (const name of RATE_LIMIT_NAMES) expect(await allowedCount(limiters[name], 1, 500)).toBe(500);
  });
});

describe('Redis limiters (several nodes)', () => {
  let dir: string;
  let redis: ThrowawayRedis;
  const clients: Redis[] = [];
  const connect = async () => {
    const client = new Redis(redis.url, { enableOfflineQueue: false, commandTimeout: 500, lazyConnect: true, retryStrategy: () => 50 });
    client.on('error', () => {});
    clients.push(client);
    await client.connect();
    return client;
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-rate-redis-'));
    redis = await startRedis(dir);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('shares one budget between nodes: half of it on each exhausts it', async () => {
    const limit = only({ perSecond: 1 / 3600, burst: 10 });
    const [nodeA, nodeB] = [createRateLimiters(limit, { redis: await connect() }), createRateLimiters(limit, { redis: await connect() })];
    const user = 1_001;
    expect(await allowedCount(nodeA.send, user, 5)).toBe(5);
    expect(await allowedCount(nodeB.send, user, 5)).toBe(5);
    expect((await nodeA.send.take(user)).allowed).toBe(false);
    expect(await nodeB.send.take(user)).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    // Someone else's budget is untouched.
    expect((await nodeB.send.take(user + 1)).allowed).toBe(true);
  });

  it('counts on its own while Redis is away', async () => {
    const client = await connect();
    const { send } = createRateLimiters(only({ perSecond: 1 / 3600, burst: 3 }), { redis: client });
    await redis.stop();
    try {
      // The insurance limiter: the same budget, in this node's memory (a failure here would throw).
      expect(await allowedCount(send, 2_002, 5)).toBe(3);
    } finally {
      await redis.start();
    }
  });
});

it('words the refusal as the client expects: msg, with the wait in seconds', () => {
  expect(tooManyRequests(3)).toEqual({ msg: 'Too many requests. Try again in 3 s.' });
});
