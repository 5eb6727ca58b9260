import { Writable } from 'node:stream';
import type { ServerDeps } from '../app';
import { startTestServer, type TestServer, type TestServerOptions } from './helpers';

export interface ConfiguredServerOptions extends Pick<TestServerOptions, 'verifier' | 'storage' | 'refusalLog'> {
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
  const logLines: string[] = [];
  const server = await startTestServer({
    verifier: options.verifier,
    storage: options.storage,
    refusalLog: options.refusalLog,
    config: { logLevel: options.captureLogs ? 'trace' : 'silent', ...options.config },
    logDestination: options.captureLogs
      ? new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
            done();
          },
        })
      : undefined,
  });
  return { ...server, logLines };
}
