// The shapes of environment values (server/config.ts reads the environment with them): each one
// a Zod schema that takes the variable's text, blank meaning unset, and gives the typed value or
// a message that says what the variable must look like.
import { z } from 'zod';
import { DAY_MS } from './db/session-rules';
import type { RateLimit } from './security/rate-limit';

// .env files commonly leave variables blank ("DATABASE_URL="); blank means "not set".
export const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
export const optionalText = z.preprocess(blankToUndefined, z.string().trim().min(1).optional());
export const flag = (fallback: boolean) => z.preprocess(blankToUndefined, z.stringbool().default(fallback));

export const days = (fallbackMs: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'must be a number of days' })
      .positive('must be more than 0 days')
      .max(3650)
      .transform((value) => value * DAY_MS)
      .default(fallbackMs),
  );

/**
 * A variable's text, trimmed, read by `parse`; unset: `fallback`. `parse` answers undefined for
 * text of the wrong shape, which stops the start with `expected` ("must be ...").
 */
const parsedText = <T>(fallback: T, expected: string, parse: (text: string) => T | undefined) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .optional()
      .transform((value, ctx): T => {
        if (value === undefined) return fallback;
        const parsed = parse(value);
        if (parsed !== undefined) return parsed;
        ctx.addIssue({ code: 'custom', message: expected });
        return z.NEVER;
      }),
  );

/** "off" (any case) turns the setting off (null); any other text is read by `parse`. */
const orOff =
  <T>(parse: (text: string) => T | undefined) =>
  (text: string): T | null | undefined =>
    text.toLowerCase() === 'off' ? null : parse(text);

const SECONDS_PER: Record<string, number> = { s: 1, m: 60, h: 3600 };
const RATE_LIMIT_SHAPE = /^(\d+(?:\.\d+)?)\/([smh])\s*,\s*burst\s*=\s*(\d+)$/;

/** "<count>/<s|m|h>,burst=<n>" (e.g. "5/s,burst=50"), or "off"; unset: the default. */
export const rateLimit = (fallback: RateLimit) =>
  parsedText<RateLimit | null>(
    fallback,
    'must be "<count>/<s|m|h>,burst=<n>" with count > 0 and n >= 1 (e.g. 5/s,burst=50), or off',
    orOff((text) => {
      const [, count, unit = 's', burst] = RATE_LIMIT_SHAPE.exec(text) ?? [];
      const limit = { perSecond: Number(count) / (SECONDS_PER[unit] ?? 1), burst: Number(burst) };
      return limit.perSecond > 0 && limit.burst >= 1 ? limit : undefined;
    }),
  );

// Decimal units as the app shows sizes (kB = 1,000 bytes), and the binary ones by their own names.
const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};
const BYTES_SHAPE = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/** A size: bytes, or with kB / MB / GB / TB ("2GB", "500 MB") or KiB / MiB / GiB / TiB; "off": no limit (null). */
export const byteSize = (fallback: number) =>
  parsedText<number | null>(
    fallback,
    'must be a size like 2GB, 500MB, 2GiB or 1048576 (bytes), or off',
    orOff((text) => {
      const [, count, unit = ''] = BYTES_SHAPE.exec(text) ?? [];
      const factor = BYTE_UNITS[unit.toLowerCase()];
      const bytes = factor === undefined ? NaN : Math.floor(Number(count) * factor);
      return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : undefined;
    }),
  );

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration: "<n><s|m|h|d>" ("24h", "90m"), in milliseconds. */
export const duration = (fallback: number) =>
  parsedText(fallback, 'must be a duration of at least 1 s like 24h, 90m or 30s', (text) => {
    const [, count, unit = ''] = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(text) ?? [];
    const ms = Math.round(Number(count) * (DURATION_UNITS[unit] ?? NaN));
    return ms >= 1_000 ? ms : undefined;
  });

/** Comma-separated origins, each exactly http(s)://host[:port]; unset: null (same origin only). */
export const originList = z.preprocess(
  blankToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx): string[] | null => {
      if (value === undefined) return null;
      const origins: string[] = [];
      for (const item of value.split(',').map((part) => part.trim()).filter(Boolean)) {
        const url = URL.canParse(item) ? new URL(item) : undefined;
        // href adds what an origin must not have: a path, a query, a fragment, credentials.
        if (!url || !/^https?:$/.test(url.protocol) || url.href !== `${url.origin}/`) {
          ctx.addIssue({ code: 'custom', message: `"${item}" is not an origin like https://parley.example.com` });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      if (origins.length > 0) return origins;
      ctx.addIssue({ code: 'custom', message: 'lists no origin; leave it unset for same-origin only' });
      return z.NEVER;
    }),
);

/** Fastify's trustProxy, as TRUST_PROXY sets it. */
export type TrustProxy = boolean | string[];

const ADDRESS_OR_CIDR = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(?:\/\d{1,3})?$/i;

/**
 * Which proxies in front are believed about the client's address (X-Forwarded-For): "false" (the
 * default: none), "true" (any: only behind a proxy that overwrites the header), or a
 * comma-separated list of proxy addresses and CIDRs ("10.0.0.0/8,127.0.0.1"), the safer choice.
 */
export const trustProxy = parsedText<TrustProxy>(
  false,
  'must be true, false, or comma-separated proxy addresses or CIDRs',
  (text) => {
    const lower = text.toLowerCase();
    if (lower === 'false') return false;
    if (lower === 'true') return true;
    const list = text.split(',').map((part) => part.trim());
    return list.every((part) => ADDRESS_OR_CIDR.test(part)) ? list : undefined;
  },
);
