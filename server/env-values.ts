// The shapes of environment values (server/config.ts reads the environment with them): each one
// a Zod schema that takes the variable's text, blank meaning unset, and gives the typed value or
// a message that says what the variable must look like.
import { z } from 'zod';
import { DAY_MS } from './auth/session-rules';
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

const SECONDS_PER: Record<string, number> = { s: 1, m: 60, h: 3600 };
const RATE_LIMIT_SHAPE = /^(\d+(?:\.\d+)?)\/([smh])\s*,\s*burst\s*=\s*(\d+)$/;
const RATE_LIMIT_FORMAT = 'must be "<count>/<s|m|h>,burst=<n>" with count > 0 and n >= 1 (e.g. 5/s,burst=50), or off';

/** "<count>/<s|m|h>,burst=<n>" (e.g. "5/s,burst=50"), or "off"; unset: the default. */
export const rateLimit = (fallback: RateLimit) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .optional()
      .transform((value, ctx): RateLimit | null => {
        if (value === undefined) return fallback;
        if (value.toLowerCase() === 'off') return null;
        const [, count, unit = 's', burst] = RATE_LIMIT_SHAPE.exec(value) ?? [];
        const limit = { perSecond: Number(count) / (SECONDS_PER[unit] ?? 1), burst: Number(burst) };
        if (limit.perSecond > 0 && limit.burst >= 1) return limit;
        ctx.addIssue({ code: 'custom', message: RATE_LIMIT_FORMAT });
        return z.NEVER;
      }),
  );

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };
const BYTES_SHAPE = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/** A size: bytes, or with KiB / MiB / GiB / TiB ("2GiB", "500 MiB"); "off": no limit (null). */
export const byteSize = (fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .optional()
      .transform((value, ctx): number | null => {
        if (value === undefined) return fallback;
        if (value.toLowerCase() === 'off') return null;
        const [, count, unit = ''] = BYTES_SHAPE.exec(value) ?? [];
        const factor = BYTE_UNITS[unit.toLowerCase()];
        const bytes = factor === undefined ? NaN : Math.floor(Number(count) * factor);
        if (bytes >= 1 && Number.isSafeInteger(bytes)) return bytes;
        ctx.addIssue({ code: 'custom', message: 'must be a size like 2GiB, 500MiB or 1048576 (bytes), or off' });
        return z.NEVER;
      }),
  );

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration: "<n><s|m|h|d>" ("24h", "90m"), in milliseconds. */
export const duration = (fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .optional()
      .transform((value, ctx): number => {
        if (value === undefined) return fallback;
        const [, count, unit = ''] = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(value) ?? [];
        const ms = Math.round(Number(count) * (DURATION_UNITS[unit] ?? NaN));
        if (ms >= 1_000) return ms;
        ctx.addIssue({ code: 'custom', message: 'must be a duration of at least 1 s like 24h, 90m or 30s' });
        return z.NEVER;
      }),
  );

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
