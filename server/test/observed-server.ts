import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { LogLevel } from '../config';
import type { RateLimits } from '../security/rate-limit';
import { createServer } from '../app';
import { createFirebaseVerifier } from '../auth/firebase-verifier';
import { openDatabase } from '../db/open-database';
import { createLocalFileStorage } from '../storage/file-storage';
import { EMULATOR_PROJECT_ID } from './emulator';
import type { TestServer } from './helpers';

/** One JSON line the server logged. */
export interface LogLine {
  level: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

export interface ObservedServer extends TestServer {
  /** Every line the server logged at `logLevel` or above, parsed. */
  logs: LogLine[];
  /** Every route Fastify registered (HEAD twins of GET routes included), in registration order. */
  routes: RegisteredRoute[];
}

export interface ObservedServerOptions {
  /** Production's default level, so client faults logged at info are seen too. */
  logLevel?: LogLevel;
  /** Unset: the server's defaults. */
  rateLimits?: RateLimits;
}

/** Every rate limit switched off: a fuzzer reaching validation instead of the limiter. */
export const NO_RATE_LIMITS: RateLimits = { send: null, follow: null, search: null, upload: null };

/**
 * startTestServer's server (PGlite in a temporary directory, the emulator-backed verifier), but
 * logging at a real level into memory instead of stdout, and recording every route Fastify
 * registers.
 */
export async function startObservedServer({ logLevel = 'info', rateLimits }: ObservedServerOptions = {}): Promise<ObservedServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-observed-'));
  // In memory: nothing here needs to outlive the server, and it is several times faster.
  const database = await openDatabase({ pgliteDir: 'memory' });
  const uploadsDir = path.join(dir, 'uploads');
  const logs: LogLine[] = [];
  const server = createServer({
    config: { port: 0, host: '127.0.0.1', logLevel, ...(rateLimits && { rateLimits }) },
    db: database,
    verifier: createFirebaseVerifier({ projectId: EMULATOR_PROJECT_ID, authEmulatorHost: inject('firebaseAuthEmulatorHost') }),
    storage: createLocalFileStorage(uploadsDir),
    logDestination: {
      write: (chunk) => {
        for (const line of chunk.split('\n')) if (line) logs.push(JSON.parse(line) as LogLine);
      },
    },
  });
  const routes: RegisteredRoute[] = [];
  // Routes are registered inside plugins, which only run at ready(): this hook sees all of them.
  server.app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  const { port } = await server.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    db: database.db,
    uploadsDir,
    logs,
    routes,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
