import nextEnv from '@next/env';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// .env files commonly leave variables blank ("DATABASE_URL="); blank means "not set".
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().min(1).optional());
const flag = (fallback: boolean) => z.preprocess(blankToUndefined, z.stringbool().default(fallback));

// Unset means production: a server started by hand (`node dist/server/main.js`) must never fall back
// to the development settings, which accept the Auth emulator's unsigned tokens.
const DEFAULT_NODE_ENV = 'production';
// The only modes in which FIREBASE_AUTH_EMULATOR_HOST is honoured without the explicit override.
const EMULATOR_NODE_ENVS: ReadonlySet<string> = new Set(['development', 'test']);

const envSchema = z.object({
  NODE_ENV: z.preprocess(blankToUndefined, z.enum(['development', 'production', 'test']).default(DEFAULT_NODE_ENV)),
  PORT: z.preprocess(blankToUndefined, z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000)),
  HOST: optionalText,
  DATABASE_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional()),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('.data')),
  FIREBASE_PROJECT_ID: z.preprocess(blankToUndefined, z.string({ error: 'is required' }).trim().min(1)),
  FIREBASE_AUTH_EMULATOR_HOST: z.preprocess(
    blankToUndefined,
    z.string().regex(/^[\w.-]+:\d+$/, 'must look like host:port').optional(),
  ),
  ALLOW_AUTH_EMULATOR_IN_PRODUCTION: flag(false),
  SERVE_NEXT: flag(true),
  LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(LOG_LEVELS).optional()),
});

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  /** Next runs in dev mode unless NODE_ENV=production (the default when NODE_ENV is unset). */
  dev: boolean;
  port: number;
  /** Undefined means every interface. */
  host: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  firebaseProjectId: string;
  firebaseAuthEmulatorHost: string | undefined;
  allowAuthEmulatorInProduction: boolean;
  serveNext: boolean;
  logLevel: LogLevel;
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
  if (env === process.env) {
    // Next and React pick their production builds from NODE_ENV too; make them agree with us.
    if (nodeEnvUnset) env.NODE_ENV = DEFAULT_NODE_ENV;
    // .env.development (which points at the Auth emulator) only when NODE_ENV=development says so;
    // @next/env reads .env.test by itself when NODE_ENV=test.
    nextEnv.loadEnvConfig(process.cwd(), env.NODE_ENV === 'development');
  }
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${problems.join('\n')}`);
  }
  const vars = parsed.data;
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
    host: vars.HOST,
    databaseUrl: vars.DATABASE_URL,
    dataDir: vars.DATA_DIR,
    firebaseProjectId: vars.FIREBASE_PROJECT_ID,
    firebaseAuthEmulatorHost: vars.FIREBASE_AUTH_EMULATOR_HOST,
    allowAuthEmulatorInProduction: vars.ALLOW_AUTH_EMULATOR_IN_PRODUCTION,
    serveNext: vars.SERVE_NEXT,
    logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === 'test' ? 'warn' : 'info'),
  };
}
