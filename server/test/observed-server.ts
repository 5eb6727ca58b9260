import type { LogLevel } from '../logging/logger-options';
import type { ParleyServer } from '../app';
import { RATE_LIMIT_NAMES, type RateLimits } from '../security/rate-limit';
import type { FileStorage } from '../storage/file-storage';
import { startTestServer, type TestServer, type TestServerOptions } from './helpers';

/** One JSON line the server logged. */
interface LogLine {
  level: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

interface RegisteredRoute {
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
  /** Unset: a local folder in the server's temporary directory. */
  storage?: FileStorage;
  /** Runs before listen(), after the route recorder is hooked: routes and listeners added here are recorded too. */
  beforeListen?: (server: ParleyServer) => void;
  /** Unset: no Web Push. */
  push?: TestServerOptions['push'];
  /** Unset: the release's own. */
  socketProtocols?: TestServerOptions['socketProtocols'];
}

/** Every rate limit switched off: a fuzzer reaching validation instead of the limiter. */
export const NO_RATE_LIMITS = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, null])) as RateLimits;

/**
 * startTestServer's server (PGlite in a temporary directory, the emulator-backed verifier), but
 * logging at a real level into memory instead of stdout, and recording every route Fastify
 * registers.
 */
export async function startObservedServer({ logLevel = 'info', rateLimits, storage, beforeListen, push, socketProtocols }: ObservedServerOptions = {}): Promise<ObservedServer> {
  const logs: LogLine[] = [];
  const routes: RegisteredRoute[] = [];
  const server = await startTestServer({
    config: { logLevel, ...(rateLimits && { rateLimits }) },
    // In memory: nothing here needs to outlive the server, and it is several times faster.
    inMemory: true,
    storage,
    push,
    socketProtocols,
    logDestination: {
      write: (chunk) => {
        for (const line of chunk.split('\n')) if (line) logs.push(JSON.parse(line) as LogLine);
      },
    },
    // Routes are registered inside plugins, which only run at ready(): this hook sees all of them.
    beforeListen: (parley) => {
      parley.app.addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      });
      beforeListen?.(parley);
    },
  });
  return { ...server, logs, routes };
}
