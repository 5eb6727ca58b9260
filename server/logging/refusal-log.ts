// Refusals (bad tokens, rate limits, invalid input, shed load) are what an attacker can make as many
// of as they like, so they are counted, never logged one line each: one summary line per caller
// and reason every interval, and at most `maxKeys` of those; the rest fold into one line. At info
// level (the default) refusals cost at most `maxKeys + 1` lines an interval whatever the flood
// (docs/DECISIONS.md, "Refusals are counted, not logged one by one"). Each refusal's own detail is
// logged at debug, for whoever turns that on to trace one client.
import type { FastifyBaseLogger } from 'fastify';

export interface RefusalLog {
  /**
   * Counts one refusal of `who` ("account 12", "address 203.0.113.9") for `reason` (a short,
   * fixed phrase with the route or event: never text the caller chose, which would make every
   * refusal a key of its own). `sample` is kept for the first refusal of a key in an interval.
   */
  count(who: string, reason: string, sample?: string): void;
  /** Writes the summary lines now and starts a new interval. */
  flush(): void;
  /** Flushes and stops the timer (the server's close). */
  stop(): void;
}

export interface RefusalLogOptions {
  intervalMs?: number;
  maxKeys?: number;
}

const REFUSAL_LOG_INTERVAL_MS = 10_000;
export const REFUSAL_LOG_MAX_KEYS = 20;
// A sample is for recognising the refusal, not for storing what a caller sent.
const MAX_SAMPLE_CHARS = 160;
const MAX_KEY_PART_CHARS = 120;

interface Tally {
  who: string;
  reason: string;
  count: number;
  sample?: string;
}

export function createRefusalLog(log: FastifyBaseLogger, { intervalMs = REFUSAL_LOG_INTERVAL_MS, maxKeys = REFUSAL_LOG_MAX_KEYS }: RefusalLogOptions = {}): RefusalLog {
  let tallies = new Map<string, Tally>();
  let overflow = { keys: 0, count: 0 };
  // Keys past maxKeys are only counted; this remembers which were seen, up to a bound of its own.
  let overflowKeys = new Set<string>();

  const flush = () => {
    for (const { who, reason, count, sample } of tallies.values()) {
      log.info({ who, reason, count, ...(sample !== undefined && { sample }), intervalMs }, 'refused');
    }
    if (overflow.count > 0) {
      log.info({ keys: overflow.keys, count: overflow.count, intervalMs }, 'refused: more callers and reasons than are listed');
    }
    tallies = new Map();
    overflow = { keys: 0, count: 0 };
    overflowKeys = new Set();
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();

  return {
    count(who, reason, sample) {
      const key = `${who.slice(0, MAX_KEY_PART_CHARS)}\n${reason.slice(0, MAX_KEY_PART_CHARS)}`;
      const tally = tallies.get(key);
      if (tally) {
        tally.count += 1;
        return;
      }
      if (tallies.size < maxKeys) {
        const entry: Tally = { who: who.slice(0, MAX_KEY_PART_CHARS), reason: reason.slice(0, MAX_KEY_PART_CHARS), count: 1 };
        if (sample !== undefined) entry.sample = sample.slice(0, MAX_SAMPLE_CHARS);
        tallies.set(key, entry);
        return;
      }
      overflow.count += 1;
      if (overflowKeys.size < maxKeys * 50 && !overflowKeys.has(key)) {
        overflowKeys.add(key);
        overflow.keys += 1;
      }
    },
    flush,
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}

/** Who a refusal is counted against: the account when known, else the address it came from. */
export const refusedCaller = (userId: number | undefined, address: string | undefined): string =>
  userId !== undefined ? `account ${userId}` : `address ${address ?? 'unknown'}`;
