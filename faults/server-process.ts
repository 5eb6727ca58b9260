// The production server as a child process: bundled by scripts/build-server.mjs into a temporary
// directory (never dist/server, which others may be running), started with NODE_ENV=production.
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { REPO_ROOT, productionServerEnv, spawnOwned, waitForOk } from '../testing/processes';

export { REPO_ROOT, buildServerBundle, freePort } from '../testing/processes';

const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export interface ServerProcessOptions {
  entry: string;
  port: number;
  dataDir: string;
  logFile: string;
  /** Extra environment (rate limits raised for the test). */
  env?: Record<string, string>;
  /** Extra node flags (e.g. --cpu-prof when looking into a slow run). */
  nodeArgs?: string[];
  /**
   * What start() waits on: /api/health (the default: the process serves HTTP) or /api/ready (its
   * database and Redis answer too, as a load balancer would wait for).
   */
  readyPath?: '/api/health' | '/api/ready';
}

export interface ServerProcess {
  readonly url: string;
  readonly pid: number | undefined;
  /** Started and not exited (a crash shows here as false). */
  readonly running: boolean;
  /** How the last run ended: its exit code, or the signal that ended it; null while running. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Starts (or starts again, on the same data and port); resolves once `readyPath` answers 200. */
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
    ...productionServerEnv({ port: options.port, dataDir: options.dataDir, projectId: 'parley-fault-test' }),
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
    const exited = () => (started.exitCode ?? started.signalCode)?.toString() ?? null;
    await waitForOk(`${url}${options.readyPath ?? '/api/health'}`, { timeoutMs: READY_TIMEOUT_MS, exited }).catch((error: Error) => {
      throw new Error(`server ${error.message}:\n${tail()}`);
    });
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
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    get exit() {
      if (!child || (child.exitCode === null && child.signalCode === null)) return null;
      return { code: child.exitCode, signal: child.signalCode };
    },
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) throw new Error('server already running');
      log ??= createWriteStream(options.logFile, { flags: 'a' });
      const owned = spawnOwned(process.execPath, [...(options.nodeArgs ?? []), '--enable-source-maps', options.entry], {
        cwd: REPO_ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const started = owned.child;
      child = started;
      exited = owned.exited;
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
