import { cp, mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { AuthorizeRequest, AuthorizeResponse } from '../../lib/contract';
import { createServer, type ParleyServer, type ServerDeps } from '../app';
import { createFirebaseVerifier, type FirebaseTokenVerifier } from '../auth/firebase-verifier';
import { openDatabase, type Db } from '../db/engine/open-database';
import type { LogDestination } from '../logging/logger-options';
import { createLocalFileStorage, type FileStorage } from '../storage/file-storage';
import { EMULATOR_PROJECT_ID, emulatorSignIn, type EmulatorAccount } from './emulator';


export interface TestServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  server: ParleyServer;
  /** The server's own database, for arranging and asserting rows directly. */
  db: Db;
  /** The server's upload storage directory (a temporary one), unless `storage` was given. */
  uploadsDir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Only to force failures; by default the real firebase-admin verifier on the test emulator. */
  verifier?: FirebaseTokenVerifier;
  /** Only to force failures; by default local storage in the temporary directory (`uploadsDir`). */
  storage?: FileStorage;
  /** Merged over the test defaults: port 0, 127.0.0.1, silent logs. */
  config?: Partial<ServerDeps['config']>;
  logDestination?: LogDestination;
  /** PGlite in memory instead of the temporary directory: faster, for servers nothing reopens. */
  inMemory?: boolean;
  /** Runs before listen(): hooks that must see the routes being registered, say. */
  beforeListen?: (server: ParleyServer) => void;
  presence?: ServerDeps['presence'];
  redis?: ServerDeps['redis'];
  /** Web Push with these keys and push services (the loopback one: testing/push-service.ts). */
  push?: ServerDeps['push'];
  refusalLog?: ServerDeps['refusalLog'];
  /** A later release's socket protocols, to see an older client refused. */
  socketProtocols?: ServerDeps['socketProtocols'];
}

/**
 * A real server on a free port: PGlite in a temporary directory, the real firebase-admin
 * verifier pointed at the test emulator, no Next.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-test-'));
  const dbDir = path.join(dir, 'db');
  // A copy of the run's migrated database (global-setup.ts): opening it skips initdb and the
  // migrations, a third of the time of a new one.
  if (!options.inMemory) await cp(inject('pgliteTemplate'), dbDir, { recursive: true });
  const database = await openDatabase({ pgliteDir: options.inMemory ? 'memory' : dbDir });
  const uploadsDir = path.join(dir, 'uploads');
  const verifier =
    options.verifier ??
    createFirebaseVerifier({ projectId: EMULATOR_PROJECT_ID, authEmulatorHost: inject('firebaseAuthEmulatorHost') });
  const server = createServer({
    // No load shedding unless a test asks for it: on a busy machine PGlite alone can lag the
    // shared event loop past its threshold, and a test would then fail for the machine's load.
    // Every test person signs up from 127.0.0.1, so the per-address signup budget is off unless a
    // test sets it (address-limits.test.ts does). Refusals are answered at once unless a test
    // holds them (rate-limits.test.ts): tests that run into a limit would otherwise wait a second
    // for each refusal.
    config: {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      shedEventLoopDelayMs: 0,
      refusalHoldMs: 0,
      ...options.config,
      rateLimits: { signup: null, ...options.config?.rateLimits },
    },
    db: database,
    verifier,
    storage: options.storage ?? createLocalFileStorage(uploadsDir),
    logDestination: options.logDestination,
    presence: options.presence,
    redis: options.redis,
    push: options.push,
    refusalLog: options.refusalLog,
    socketProtocols: options.socketProtocols,
  });
  options.beforeListen?.(server);
  const { port } = await server.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    db: database.db,
    uploadsDir,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch against /api; JSON bodies are encoded unless `raw` is given. Parses JSON responses. */
export async function api<T = unknown>(
  base: string,
  route: string,
  init: { method?: string; token?: string; json?: unknown; raw?: string; contentType?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = init.token;
  let body: string | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.json !== undefined) body = JSON.stringify(init.json);
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await fetch(`${base}/api${route}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json');
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
}

/** A fresh identity per call, so parallel test files never share emulator accounts. */
export function uniqueProfile(name = 'Test User'): { email: string; displayName: string } {
  return { email: `${randomUUID()}@example.com`, displayName: name };
}

/** The body the client sends to authorize for an emulator account: the email is the account's own. */
export function authorizeBody(
  account: Pick<EmulatorAccount, 'uid' | 'idToken'> & { email?: string | null },
  extra: Partial<AuthorizeRequest> = {},
): AuthorizeRequest {
  return {
    username: 'Test User',
    email: account.email ?? null,
    firebase_id: account.uid,
    social_type: 'google',
    avatar: 'https://example.com/avatar.png',
    id_token: account.idToken,
    ...extra,
  };
}

export interface SignedInUser extends AuthorizeResponse {
  account: EmulatorAccount;
  /** What the client stores and sends: "Bearer <token>". */
  bearer: string;
}

/** The whole sign-in flow: emulator account, then POST accounts/authorize. */
export async function signIn(base: string, name = 'Test User'): Promise<SignedInUser> {
  const profile = uniqueProfile(name);
  const account = await emulatorSignIn(profile);
  const response = await api<AuthorizeResponse>(base, '/accounts/authorize', {
    method: 'POST',
    json: authorizeBody(account, { username: name, email: profile.email }),
  });
  if (response.status !== 200) throw new Error(`authorize failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { ...response.body, account, bearer: `Bearer ${response.body.token}` };
}
