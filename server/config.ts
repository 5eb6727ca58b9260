import nextEnv from '@next/env';
import { z } from 'zod';
import { DEFAULT_MAX_SESSIONS_PER_USER, DEFAULT_SESSION_RULES, type SessionRules } from './db/session-rules';
import { LOG_LEVELS, type LogLevel } from './logging/logger-options';
import { blankToUndefined, byteSize, days, duration, flag, optionalText, originList, rateLimit, trustProxy, type TrustProxy } from './env-values';
import { RATE_LIMIT_NAMES, rateLimitVar, type RateLimitName, type RateLimits, type RateLimitVar } from './security/rate-limit';
import { DEFAULT_RATE_LIMITS } from './security/rate-limit-defaults';
import type { ObjectStorageSettings } from './storage/s3-file-storage';
import {
  DEFAULT_PUSH_ENDPOINT_ORIGINS,
  endpointOriginProblem,
  vapidKeyProblems,
  type PushSettings,
} from './push/push-settings';


/**
 * Sockets one user may hold at once, across nodes. 20 is more tabs and devices than anyone keeps
 * open; past it the oldest is disconnected (a tab left open somewhere), never the new one.
 */
export const DEFAULT_MAX_SOCKETS_PER_USER = 20;

/**
 * Requests and socket events are refused (503 / a busy ack) while the event loop's mean delay over
 * the last second is above this. The attack that motivated it took the health probe to 788 ms;
 * the delivery benchmark's steady 1,000 msg/s on PGlite runs at a p99 of 80 ms (mean well below),
 * so 200 ms is far past normal heavy load and well before everyone's requests take seconds.
 */
export const DEFAULT_SHED_EVENT_LOOP_DELAY_MS = 200;
/** A rate-limit refusal is answered this long after (security/rate-limit.ts, holdingRefusals). */
export const DEFAULT_REFUSAL_HOLD_MS = 1_000;

/**
 * Bytes of uploads one user may keep: forty files at the 50 MB maximum, thousands of photos.
 * Decimal, as every size is shown: 2 GB reads "2 GB" (2 GiB would read "2.1 GB").
 */
export const DEFAULT_UPLOAD_QUOTA_BYTES = 2_000_000_000;

/**
 * Uploads never attached to a message are deleted after this: a day covers a message composed,
 * left in the outbox overnight and sent the next morning.
 */
export const DEFAULT_UNATTACHED_UPLOAD_TTL_MS = 24 * 3600 * 1000;

/**
 * How long after sending its sender may edit a message: 15 minutes, as iMessage and WhatsApp
 * allow. Long enough to fix a typo noticed after the reply came; short enough that a conversation
 * read an hour ago still says what it said.
 */
export const DEFAULT_EDIT_WINDOW_MS = 15 * 60_000;

/**
 * How long after sending its sender may unsend a message for everyone: a day, as Signal allows.
 * Regret (the wrong person, a photo sent by mistake) usually shows within hours; past a day the
 * other person's record of the conversation is theirs too (WhatsApp stops at about two days).
 */
export const DEFAULT_UNSEND_WINDOW_MS = 24 * 3600_000;

// Unset means production: a server started by hand (`node dist/server/main.js`) must never fall back
// to the development settings, which accept the Auth emulator's unsigned tokens.
const DEFAULT_NODE_ENV = 'production';
// The only modes in which FIREBASE_AUTH_EMULATOR_HOST is honoured without the explicit override.
const EMULATOR_NODE_ENVS: ReadonlySet<string> = new Set(['development', 'test']);
const LOOPBACK = '127.0.0.1';

/** RATE_LIMIT_<NAME> for every budget, from the one list of them (security/rate-limit.ts). */
const rateLimitVars = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [rateLimitVar(name), rateLimit(DEFAULT_RATE_LIMITS[name])])) as {
  [K in RateLimitName as RateLimitVar<K>]: ReturnType<typeof rateLimit>;
};

const envSchema = z.object({
  ...rateLimitVars,
  NODE_ENV: z.preprocess(blankToUndefined, z.enum(['development', 'production', 'test']).default(DEFAULT_NODE_ENV)),
  PORT: z.preprocess(blankToUndefined, z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000)),
  HOST: optionalText,
  DATABASE_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional()),
  REDIS_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional()),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('.data')),
  FIREBASE_PROJECT_ID: z.preprocess(blankToUndefined, z.string({ error: 'is required' }).trim().min(1)),
  FIREBASE_AUTH_EMULATOR_HOST: z.preprocess(
    blankToUndefined,
    z.string().regex(/^[\w.-]+:\d+$/, 'must look like host:port').optional(),
  ),
  ALLOW_AUTH_EMULATOR_IN_PRODUCTION: flag(false),
  SERVE_NEXT: flag(true),
  MIGRATE_ON_START: flag(true),
  LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(LOG_LEVELS).optional()),
  ALLOWED_ORIGINS: originList,
  SHUTDOWN_DRAIN_MS: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(600_000).default(0),
  ),
  SESSION_IDLE_DAYS: days(DEFAULT_SESSION_RULES.idleMs),
  SESSION_MAX_DAYS: days(DEFAULT_SESSION_RULES.maxMs),
  SESSION_CHECK_SECONDS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int()
      .min(0)
      .max(86_400)
      .transform((value) => value * 1000)
      .default(DEFAULT_SESSION_RULES.checkIntervalMs),
  ),
  MAX_SOCKETS_PER_USER: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(DEFAULT_MAX_SOCKETS_PER_USER),
  ),
  SHED_EVENT_LOOP_DELAY_MS: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'must be a number of milliseconds (0: off)' }).int().min(0).max(60_000).default(DEFAULT_SHED_EVENT_LOOP_DELAY_MS),
  ),
  RATE_LIMIT_HOLD_MS: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'must be a number of milliseconds (0: answer at once)' }).int().min(0).max(60_000).default(DEFAULT_REFUSAL_HOLD_MS),
  ),
  UPLOAD_QUOTA: byteSize(DEFAULT_UPLOAD_QUOTA_BYTES),
  UNATTACHED_UPLOAD_TTL: duration(DEFAULT_UNATTACHED_UPLOAD_TTL_MS),
  MESSAGE_EDIT_WINDOW: duration(DEFAULT_EDIT_WINDOW_MS),
  MESSAGE_UNSEND_WINDOW: duration(DEFAULT_UNSEND_WINDOW_MS),
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ENDPOINT: z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
  S3_FORCE_PATH_STYLE: flag(false),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  VAPID_SUBJECT: optionalText,
  PUSH_ENDPOINT_ORIGINS: optionalText,
  MAX_SESSIONS_PER_USER: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100_000).default(DEFAULT_MAX_SESSIONS_PER_USER),
  ),
  TRUST_PROXY: trustProxy,
});

// What S3-compatible stores without regions (MinIO, Ceph, R2's "auto" aside) expect, and AWS's first.
const DEFAULT_S3_REGION = 'us-east-1';


export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  /** Next runs in dev mode unless NODE_ENV=production (the default when NODE_ENV is unset). */
  dev: boolean;
  port: number;
  /**
   * Undefined means every interface: the production default (a container or a host behind a
   * proxy). Outside production it defaults to 127.0.0.1, so `npm run dev` is not reachable from
   * the network.
   */
  host: string | undefined;
  databaseUrl: string | undefined;
  /**
   * Apply pending migrations at start (under an advisory lock on Postgres); false: only check
   * that none is pending and refuse to start otherwise (`npm run db:migrate` applies them).
   */
  migrateOnStart: boolean;
  /** Set: Socket.IO broadcasts go through Redis (several nodes); unset: in-process (one node). */
  redisUrl: string | undefined;
  dataDir: string;
  firebaseProjectId: string;
  firebaseAuthEmulatorHost: string | undefined;
  allowAuthEmulatorInProduction: boolean;
  serveNext: boolean;
  logLevel: LogLevel;
  /**
   * Browser origins allowed to open a socket. Null: only the origin the request was addressed to
   * (its Host). Requests without an Origin header (not a browser) are always allowed.
   */
  allowedOrigins: string[] | null;
  /** Per-user limits (security/rate-limit.ts); null switches one off. */
  rateLimits: RateLimits;
  /** Sockets one user may hold across nodes; past it the oldest is disconnected. */
  maxSocketsPerUser: number;
  /** Mean event-loop delay (ms) over which requests and events are shed; 0: never. */
  shedEventLoopDelayMs: number;
  /** How long a rate-limit refusal is held before it is answered; 0: at once. */
  refusalHoldMs: number;
  /** Bytes of uploads a user may keep; null: no quota. */
  uploadQuotaBytes: number | null;
  /** Uploads never attached to a message are deleted this long (ms) after they were made. */
  unattachedUploadTtlMs: number;
  /** How long (ms) after sending its sender may edit a message, and unsend it for everyone. */
  messageWindows: { editWindowMs: number; unsendWindowMs: number };
  /** Session lifetimes, how many one account may hold, and how often live sessions are checked again. */
  sessions: SessionRules;
  /**
   * Fastify's trustProxy: which proxies' X-Forwarded-For names the client (false: none, the
   * connection's peer is the client; true: any; or these addresses and CIDRs).
   * The per-address limits and the refusal log go by the client it gives.
   */
  trustProxy: TrustProxy;
  /**
   * On SIGTERM, how long the node keeps serving with /api/ready answering 503 before it stops
   * accepting, so a load balancer takes it out of rotation first (docs/DEPLOY.md).
   */
  shutdownDrainMs: number;
  /** S3_BUCKET set: uploads live in that bucket; unset: in `<dataDir>/uploads` on this node's disk. */
  objectStorage: ObjectStorageSettings | undefined;
  /** Web Push: the VAPID keys (or 'generate', or null for off) and the push services allowed. */
  push: PushSettings;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment once. Only when reading the real process.env are the
 * .env files loaded into it (the same files and precedence Next uses), so tests can pass a
 * plain object without touching the process.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const nodeEnvUnset = !env.NODE_ENV;
  loadEnvFiles(env);
  const vars = parseEnv(envSchema, env);
  // Emulator ID tokens are unsigned: accepting them in production would let anyone sign in as anyone.
  const emulatorAllowed = EMULATOR_NODE_ENVS.has(vars.NODE_ENV) || vars.ALLOW_AUTH_EMULATOR_IN_PRODUCTION;
  if (vars.FIREBASE_AUTH_EMULATOR_HOST && !emulatorAllowed) {
    const mode = nodeEnvUnset ? `NODE_ENV is unset, which means ${DEFAULT_NODE_ENV}` : `NODE_ENV=${vars.NODE_ENV}`;
    throw new ConfigError(
      `Invalid environment configuration:\n  FIREBASE_AUTH_EMULATOR_HOST is set while ${mode}. ` +
        'Emulator ID tokens are unsigned, so anyone could sign in as anyone. Unset it, run with ' +
        'NODE_ENV=development (npm run dev does), or set ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true for a ' +
        'throwaway test deployment.',
    );
  }
  return {
    nodeEnv: vars.NODE_ENV,
    dev: vars.NODE_ENV !== 'production',
    port: vars.PORT,
    // Development answers on loopback only unless HOST says otherwise (Config.host).
    host: vars.HOST ?? (vars.NODE_ENV === 'production' ? undefined : LOOPBACK),
    databaseUrl: vars.DATABASE_URL,
    migrateOnStart: vars.MIGRATE_ON_START,
    redisUrl: vars.REDIS_URL,
    dataDir: vars.DATA_DIR,
    firebaseProjectId: vars.FIREBASE_PROJECT_ID,
    firebaseAuthEmulatorHost: vars.FIREBASE_AUTH_EMULATOR_HOST,
    allowAuthEmulatorInProduction: vars.ALLOW_AUTH_EMULATOR_IN_PRODUCTION,
    serveNext: vars.SERVE_NEXT,
    logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === 'test' ? 'warn' : 'info'),
    allowedOrigins: vars.ALLOWED_ORIGINS,
    rateLimits: Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, vars[rateLimitVar(name)]])) as RateLimits,
    maxSocketsPerUser: vars.MAX_SOCKETS_PER_USER,
    shedEventLoopDelayMs: vars.SHED_EVENT_LOOP_DELAY_MS,
    refusalHoldMs: vars.RATE_LIMIT_HOLD_MS,
    uploadQuotaBytes: vars.UPLOAD_QUOTA,
    unattachedUploadTtlMs: vars.UNATTACHED_UPLOAD_TTL,
    messageWindows: { editWindowMs: vars.MESSAGE_EDIT_WINDOW, unsendWindowMs: vars.MESSAGE_UNSEND_WINDOW },
    shutdownDrainMs: vars.SHUTDOWN_DRAIN_MS,
    sessions: {
      idleMs: vars.SESSION_IDLE_DAYS,
      maxMs: vars.SESSION_MAX_DAYS,
      checkIntervalMs: vars.SESSION_CHECK_SECONDS,
      maxPerUser: vars.MAX_SESSIONS_PER_USER,
    },
    trustProxy: vars.TRUST_PROXY,
    objectStorage: objectStorageOf(vars),
    push: pushOf(vars),
  };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY both or neither; with them, VAPID_SUBJECT. Neither: in
 * development and test the server keeps a generated pair in DATA_DIR; in production Web Push is
 * off (several nodes must share one pair, which only the environment can give them).
 */
function pushOf(vars: z.output<typeof envSchema>): PushSettings {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = vars;
  const problems: string[] = [];
  const origins = (vars.PUSH_ENDPOINT_ORIGINS?.split(',') ?? DEFAULT_PUSH_ENDPOINT_ORIGINS).map((origin) => origin.trim()).filter(Boolean);
  for (const origin of origins) {
    const problem = endpointOriginProblem(origin);
    if (problem) problems.push(`PUSH_ENDPOINT_ORIGINS: ${problem}`);
  }
  if (vars.PUSH_ENDPOINT_ORIGINS !== undefined && origins.length === 0) problems.push('PUSH_ENDPOINT_ORIGINS: lists no origin; leave it unset for the browsers\' push services');
  let vapid: PushSettings['vapid'] = vars.NODE_ENV === 'production' ? null : 'generate';
  if (Boolean(publicKey) !== Boolean(privateKey)) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (or leave both unset)');
  } else if (publicKey && privateKey) {
    if (!subject) problems.push('VAPID_SUBJECT: required with the VAPID keys (mailto:you@example.com or https://your.site)');
    else problems.push(...vapidKeyProblems({ publicKey, privateKey, subject }));
    vapid = { publicKey, privateKey, subject: subject ?? '' };
  } else if (subject) {
    problems.push('VAPID_SUBJECT set without VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid environment configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return { vapid, endpointOrigins: origins };
}

/** The S3_* variables: all unset (local files), or S3_BUCKET with the rest; credentials both or neither. */
function objectStorageOf(vars: z.output<typeof envSchema>): ObjectStorageSettings | undefined {
  const { S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = vars;
  const set = { S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE: vars.S3_FORCE_PATH_STYLE || undefined };
  const others = Object.keys(set).filter((name) => set[name as keyof typeof set] !== undefined);
  const problems: string[] = [];
  if (!vars.S3_BUCKET && others.length > 0) problems.push(`${others.join(', ')} set without S3_BUCKET, which selects object storage`);
  if (Boolean(vars.S3_ACCESS_KEY_ID) !== Boolean(vars.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset for the AWS default credentials)');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid environment configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  if (!vars.S3_BUCKET) return undefined;
  return {
    bucket: vars.S3_BUCKET,
    region: vars.S3_REGION ?? DEFAULT_S3_REGION,
    endpoint: vars.S3_ENDPOINT,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE,
    accessKeyId: vars.S3_ACCESS_KEY_ID,
    secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
  };
}

/** Only when reading the real process.env: the .env files, with the precedence Next uses. */
function loadEnvFiles(env: Record<string, string | undefined>): void {
  if (env !== process.env) return;
  // Next and React pick their production builds from NODE_ENV too; make them agree with us.
  if (!env.NODE_ENV) env.NODE_ENV = DEFAULT_NODE_ENV;
  // .env.development (which points at the Auth emulator) only when NODE_ENV=development says so;
  // @next/env reads .env.test by itself when NODE_ENV=test.
  nextEnv.loadEnvConfig(process.cwd(), env.NODE_ENV === 'development');
}

function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid environment configuration:\n${problems.join('\n')}`);
}

/** What `npm run db:migrate` needs: the database alone (no Firebase project, no port). */
export function loadDatabaseConfig(
  env: Record<string, string | undefined> = process.env,
): Pick<Config, 'databaseUrl' | 'dataDir'> {
  loadEnvFiles(env);
  const vars = parseEnv(envSchema.pick({ DATABASE_URL: true, DATA_DIR: true }), env);
  return { databaseUrl: vars.DATABASE_URL, dataDir: vars.DATA_DIR };
}
