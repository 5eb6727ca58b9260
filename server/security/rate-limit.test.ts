import { describe, expect, it } from 'vitest';
import { createRateLimiters, TokenBucketLimiter, tooManyRequests } from './rate-limit';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('TokenBucketLimiter', () => {
  it('allows a burst, then refuses with the seconds until the next token', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ perSecond: 0.5, burst: 3 }, time.now);
    expect([1, 2, 3].map(() => limiter.take(7).allowed)).toEqual([true, true, true]);
    expect(limiter.take(7)).toEqual({ allowed: false, retryAfterSeconds: 2 });
    time.advance(1_500);
    // Three quarters of a token: still refused, half a second to go, rounded up to a whole second.
    expect(limiter.take(7)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.advance(500);
    expect(limiter.take(7)).toEqual({ allowed: true });
    expect(limiter.take(7).allowed).toBe(false);
  });

  it('refills at the steady rate and never beyond the burst', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ perSecond: 10, burst: 2 }, time.now);
    limiter.take(1);
    limiter.take(1);
    expect(limiter.take(1).allowed).toBe(false);
    time.advance(100);
    expect(limiter.take(1).allowed).toBe(true);
    expect(limiter.take(1).allowed).toBe(false);
    time.advance(60_000);
    expect([1, 2, 3].map(() => limiter.take(1).allowed)).toEqual([true, true, false]);
  });

  it('keeps one bucket per key', () => {
    const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 1 }, clock().now);
    expect(limiter.take(1).allowed).toBe(true);
    expect(limiter.take(1).allowed).toBe(false);
    expect(limiter.take(2).allowed).toBe(true);
  });

  it('forgets buckets that have refilled, so memory holds recent users only', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ perSecond: 1, burst: 5 }, time.now);
    for (let user = 1; user <= 1_000; user += 1) limiter.take(user);
    expect(limiter.size).toBe(1_000);
    time.advance(61_000); // all full again, and a sweep is due
    limiter.take(5_000);
    expect(limiter.size).toBe(1);
  });

  it('keeps a bucket that is still refilling through a sweep', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ perSecond: 1 / 120, burst: 1 }, time.now);
    limiter.take(1);
    time.advance(61_000);
    limiter.take(2);
    expect(limiter.size).toBe(2);
    expect(limiter.take(1)).toEqual({ allowed: false, retryAfterSeconds: 59 });
  });

  it('refuses a nonsensical limit', () => {
    expect(() => new TokenBucketLimiter({ perSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ perSecond: 1, burst: 0 })).toThrow(RangeError);
  });
});

describe('createRateLimiters', () => {
  it('gives a switched-off action a limiter that always allows', () => {
    const limiters = createRateLimiters({ send: null, follow: { perSecond: 1, burst: 1 }, search: null, upload: null, typing: null, presence: null });
    for (let i = 0; i < 1_000; i += 1) expect(limiters.send.take(1).allowed).toBe(true);
    expect(limiters.follow.take(1).allowed).toBe(true);
    expect(limiters.follow.take(1).allowed).toBe(false);
  });
});

it('words the refusal as the client expects: msg, with the wait in seconds', () => {
  expect(tooManyRequests(3)).toEqual({ msg: 'Too many requests. Try again in 3 s.' });
});
