// Values a hostile client sends where a well-behaved one sends a payload field.
import type { Rng } from './prng';

const EDGE_NUMBERS: readonly number[] = [
  0, -0, -1, 1.5, -2.5, 0.1, 1e-7, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e308,
  Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, NaN, Infinity, -Infinity,
];

/** Keys that mean something to JavaScript objects, plus field names from the contract in the wrong place. */
export const NASTY_KEYS: readonly string[] = [
  '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__',
  'then', 'length', '', ' ', 'id', 'user_id', 'sender_id', 'follower_id', 'recipient_id', 'is_active',
  'seq', 'after', 'limit', '$where', '0', '-1', 'a.b', '\u0000', '🔑', 'x'.repeat(300),
];

const NASTY_STRINGS: readonly string[] = [
  '', ' ', '\t\n\r', '0', '1', '-1', '1.5', '1e3', '0x10', '00001', 'NaN', 'Infinity', 'null', 'undefined',
  'true', 'false', '[]', '{}', '__proto__', 'constructor', "' OR '1'='1' --", '"; DROP TABLE users; --',
  '%', '_', '\\', '%_\\', '<script>alert(1)</script>', '../../../../etc/passwd', '..\\..\\windows',
  '\u0000', 'a\u0000b', '\uD800', 'x\uDFFFy', '\uFEFF', '\u202Eevil', '\u200B', '𝕏𝕐', '👩‍👩‍👧‍👦',
  'Ω≈ç√∫', 'ﷺ', 'ㅤ', '\r\n\r\nHTTP/1.1 200 OK', '${jndi:ldap://x/a}', '{{7*7}}', '%s%s%n', 'Bearer',
  'Bearer ', 'WyJtIiwxXQ', '0b6c3f4e-3f55-4d8e-9a8e-0f3c1b2a9d1', '0b6c3f4e-3f55-4d8e-9a8e-0f3c1b2a9d10x',
];

const UNICODE_POOL = 'aZ09 _-.%/\\\'"<>&;:ńéüßØ漢字한글Ωж\u0301\u200d\u2028\u2029\uFFFD\uFFFF🙂🔥';

export interface HostileOptions {
  /** Longest string to generate (keep payloads under the transport's frame limit). */
  maxHuge: number;
  /** Allow Buffers (socket binary attachments); REST bodies are JSON text. */
  binary: boolean;
  /** Deepest nesting (socket.io-client's encoder recurses: keep it within the test's stack). */
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 3_000;

/** encodeURIComponent that never throws: lone surrogates become U+FFFD first. */
export function encodePart(text: string): string {
  return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
}

export function hostileNumber(rng: Rng): number {
  return rng.chance(0.7) ? rng.pick(EDGE_NUMBERS) : rng.int(-1e6, 1e6) + rng.pick([0, 0.5, 0.25]);
}

/** At most `maxHuge` bytes of UTF-8 (as JSON text, near enough): ASCII, or a quarter as many characters of anything. */
export function hugeString(rng: Rng, maxHuge: number): string {
  const length = Math.min(maxHuge, rng.pick([4001, 10_000, 65_536, maxHuge]));
  if (rng.chance(0.5)) return 'x'.repeat(length);
  const chars = Math.floor(length / 6);
  return rng.chars(Math.min(chars, 2_000), UNICODE_POOL).repeat(Math.ceil(chars / 2_000)).slice(0, chars);
}

export function hostileString(rng: Rng, maxHuge: number): string {
  return rng.weighted<() => string>([
    [5, () => rng.pick(NASTY_STRINGS)],
    [3, () => rng.chars(rng.int(0, 40), UNICODE_POOL)],
    [1, () => hugeString(rng, maxHuge)],
  ])();
}

/** Nested arrays or objects, `depth` levels deep. */
export function deepValue(rng: Rng, depth: number): unknown {
  const useArray = rng.chance(0.5);
  let value: unknown = rng.chance(0.5) ? 1 : 'leaf';
  for (let i = 0; i < depth; i++) value = useArray ? [value] : { a: value };
  return value;
}

/** An object whose own keys include JavaScript's special names (an own `__proto__` survives JSON). */
export function hostileObject(rng: Rng, options: HostileOptions, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = rng.int(0, 4); i > 0; i--) {
    Object.defineProperty(out, rng.pick(NASTY_KEYS), {
      value: hostileValue(rng, options, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export function hostileValue(rng: Rng, options: HostileOptions, depth = 2): unknown {
  const kinds: (readonly [number, () => unknown])[] = [
    [2, () => null],
    [1, () => undefined],
    [1, () => rng.chance(0.5)],
    [4, () => hostileNumber(rng)],
    [5, () => hostileString(rng, options.maxHuge)],
    [1, () => deepValue(rng, rng.pick([50, 500, options.maxDepth ?? DEFAULT_MAX_DEPTH]))],
    // JSON.parse makes `__proto__` an own key, as the server's parser sees it on the wire.
    [1, () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown],
  ];
  if (depth > 0) {
    kinds.push([2, () => Array.from({ length: rng.int(0, 4) }, () => hostileValue(rng, options, depth - 1))]);
    kinds.push([3, () => hostileObject(rng, options, depth)]);
  }
  if (options.binary) kinds.push([1, () => rng.bytes(Math.min(options.maxHuge, rng.pick([0, 1, 16, 4096])))]);
  return rng.weighted(kinds)();
}

/** What JSON (and so Socket.IO and our REST bodies) turns a value into; Buffers become plain objects. */
export function jsonRoundTrip(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}
