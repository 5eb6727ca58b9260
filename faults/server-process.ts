// The production server as a child process: bundled by scripts/build-server.mjs into a temporary
// directory (never dist/server, which others may be running), started with NODE_ENV=production.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Bundles the server into `<dir>/build/main.mjs`. Packages stay external (as for `npm start`), so
 * a `node_modules` link next to it lets Node resolve them from the repository.
 */
export async function buildServer(dir: string): Promise<string> {
  const buildDir = path.join(dir, 'build');
  await mkdir(buildDir, { recursive: true });
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(buildDir, 'node_modules'), 'dir');
  const outfile = path.join(buildDir, 'main.mjs');
  await run(process.execPath, ['scripts/build-server.mjs', '--outfile', outfile], { cwd: REPO_ROOT });
  return outfile;
}

/** A port nobody listens on right now (the restarted server must get the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcessOptions {
  entry: string;
  port: number;
  dataDir: string;
  logFile: string;
  /** Extra environment (rate limits raised for the test). */
  env?: Record<string, string>;
  /** Extra node flags (e.g. --cpu-prof when looking into a slow run). */
  nodeArgs?: string[];
}

export interface ServerProcess {
  readonly url: string;
  readonly pid: number | undefined;
  /** Starts (or starts again, on the same data and port); resolves once /api/health answers. */
  start(): Promise<void>;
  /** kill -9: no shutdown hooks, no flushing, sockets cut. */
  kill(): Promise<void>;
  /** SIGTERM and wait (SIGKILL after a timeout). */
  stop(): Promise<void>;
  /** Error-level lines the server logged (pino JSON, level ≥ 50), over every run. */
  errorLines(): string[];
  /** The last lines of output, for a failure message. */
  tail(lines?: number): string;
}

export function serverProcess(options: ServerProcessOptions): ServerProcess {
  const url = `http://127.0.0.1:${options.port}`;
  const output: string[] = [];
  const errors: string[] = [];
  let log: WriteStream | undefined;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // No pages in this test: only /api and /socket.io, so no Next build is needed.
    SERVE_NEXT: 'false',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    DATABASE_URL: '',
    // Required by production config; never called, since every session is seeded.
    FIREBASE_PROJECT_ID: 'parley-fault-test',
    FIREBASE_AUTH_EMULATOR_HOST: '',
    ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'false',
    LOG_LEVEL: 'warn',
    ...options.env,
  };

  const record = (chunk: Buffer) => {
    log?.write(chunk);
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level && Number(level) >= 50) errors.push(line);
    }
  };

  async function waitReady(started: ChildProcess): Promise<void> {
    const until = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < until) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`server exited while starting (${started.exitCode ?? started.signalCode}):\n${tail()}`);
      }
      try {
        const response = await fetch(`${url}/api/health`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`server not ready within ${READY_TIMEOUT_MS} ms:\n${tail()}`);
  }

  function tail(lines = 40): string {
    return output.slice(-lines).join('\n');
  }

  async function signal(name: NodeJS.Signals, timeoutMs?: number): Promise<void> {
    const target = child;
    if (!target || target.exitCode !== null || target.signalCode !== null) return;
    target.kill(name); // our own child, by its handle (its PID)
    if (timeoutMs === undefined) return exited;
    const timer = setTimeout(() => target.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  return {
    url,
    get pid() {
      return child?.pid;
    },
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) throw new Error('server already running');
      log ??= createWriteStream(options.logFile, { flags: 'a' });
      const started = spawn(process.execPath, [...(options.nodeArgs ?? []), '--enable-source-maps', options.entry], {
        cwd: REPO_ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      // If the test process goes away first, the server must not outlive it.
      const orphanGuard = () => started.kill('SIGKILL');
      process.once('exit', orphanGuard);
      exited = new Promise((resolve) =>
        started.once('exit', () => {
          process.off('exit', orphanGuard);
          resolve();
        }),
      );
      started.stdout?.on('data', record);
      started.stderr?.on('data', record);
      await waitReady(started);
    },
    kill: () => signal('SIGKILL'),
    async stop() {
      await signal('SIGTERM', STOP_TIMEOUT_MS);
      await new Promise<void>((resolve) => (log ? log.end(resolve) : resolve()));
      log = undefined;
    },
    errorLines: () => [...errors],
    tail,
  };
}
