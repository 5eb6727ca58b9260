import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { createServer, type ServerDeps } from '../app';
import { createFirebaseVerifier } from '../auth/firebase-verifier';
import { openDatabase } from '../db/open-database';
import { createLocalFileStorage } from '../storage/file-storage';
import { EMULATOR_PROJECT_ID } from './emulator';
import type { TestServer } from './helpers';

export interface ConfiguredServerOptions {
  /** Merged over the test defaults (port 0, 127.0.0.1, silent logs). */
  config?: Partial<ServerDeps['config']>;
  /** Keep the server's log lines (parsed JSON) in `logs`; raises the level to trace unless config sets one. */
  captureLogs?: boolean;
}

export interface ConfiguredTestServer extends TestServer {
  /** The raw JSON lines the server logged, in order (empty unless captureLogs). */
  logLines: string[];
}

/** startTestServer (helpers.ts) with config of its own: rate limits, allowed origins, a captured log. */
export async function startConfiguredServer(options: ConfiguredServerOptions = {}): Promise<ConfiguredTestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-test-'));
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
  const uploadsDir = path.join(dir, 'uploads');
  const logLines: string[] = [];
  const server = createServer({
    config: {
      port: 0,
      host: '127.0.0.1',
      logLevel: options.captureLogs ? 'trace' : 'silent',
      ...options.config,
    },
    db: database,
    verifier: createFirebaseVerifier({ projectId: EMULATOR_PROJECT_ID, authEmulatorHost: inject('firebaseAuthEmulatorHost') }),
    storage: createLocalFileStorage(uploadsDir),
    logDestination: options.captureLogs
      ? new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
            done();
          },
        })
      : undefined,
  });
  const { port } = await server.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    db: database.db,
    uploadsDir,
    logLines,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
