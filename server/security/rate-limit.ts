/** A token bucket: `burst` tokens at most, refilled at `perSecond`; each action takes one. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** The rate-limited actions. `null` switches one off (benchmarks, load generators). */
export interface RateLimits {
  send: RateLimit | null;
  follow: RateLimit | null;
  search: RateLimit | null;
  upload: RateLimit | null;
  /** Socket `typing` (ephemeral, relayed to the recipient's tabs). */
  typing: RateLimit | null;
  /** Socket `presence_subscribe`. */
  presence: RateLimit | null;
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one token for `key` (a user id), or says how long until one is available. */
  take(key: number): RateVerdict;
}

/** The refusal both transports give: `msg`, which the client's outbox treats as transient and retries. */
export const tooManyRequests = (retryAfterSeconds: number) => ({
  msg: `Too many requests. Try again in ${retryAfterSeconds} s.`,
});

const ALLOWED: RateVerdict = { allowed: true };
// Full buckets are forgotten at most this often, so a sweep costs O(buckets) once a minute at most.
const SWEEP_INTERVAL_MS = 60_000;

interface Bucket {
  tokens: number;
  /** When `tokens` was last computed (ms). */
  at: number;
}

/**
 * In-memory, per process. A bucket that has refilled to full behaves exactly like a missing one,
 * so sweeps delete those: memory holds only users who acted within about one refill time.
 */
export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<number, Bucket>();
  private lastSweep: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1)) throw new RangeError('A rate limit needs perSecond > 0 and burst >= 1.');
    this.lastSweep = now();
  }

  take(key: number): RateVerdict {
    const now = this.now();
    this.sweep(now);
    const tokens = this.tokensAt(this.buckets.get(key), now);
    if (tokens < 1) {
      // Less a hair, so floating-point dust (59.0000000001) does not add a whole second.
      const wait = (1 - tokens) / this.limit.perSecond - 1e-9;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return ALLOWED;
  }

  /** Buckets currently held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private tokensAt(bucket: Bucket | undefined, now: number): number {
    if (!bucket) return this.limit.burst;
    const refilled = bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.limit.perSecond;
    return Math.min(this.limit.burst, refilled);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (this.tokensAt(bucket, now) >= this.limit.burst) this.buckets.delete(key);
    }
  }
}

const unlimited: RateLimiter = { take: () => ALLOWED };

export type RateLimiters = Record<keyof RateLimits, RateLimiter>;

/** One limiter per action; a switched-off action gets one that always allows. */
export function createRateLimiters(limits: RateLimits, now?: () => number): RateLimiters {
  const make = (limit: RateLimit | null) => (limit ? new TokenBucketLimiter(limit, now) : unlimited);
  return {
    send: make(limits.send),
    follow: make(limits.follow),
    search: make(limits.search),
    upload: make(limits.upload),
    typing: make(limits.typing),
    presence: make(limits.presence),
  };
}
