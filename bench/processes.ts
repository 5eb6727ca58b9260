// The processes a benchmark measures: the production server bundle (or the floor relay), each
// started with bench/probe.mjs preloaded and an IPC channel to ask it for its event-loop delay.
// CPU and RSS are read from outside, from /proc. Every process is ours, stopped by its handle.
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { RATE_LIMIT_NAMES, rateLimitVar } from '../server/security/rate-limit';
import { REPO_ROOT, productionServerEnv, run, spawnOwned } from '../testing/processes';

export { REPO_ROOT, buildServerBundle, freePort } from '../testing/processes';
const PROBE = path.join(REPO_ROOT, 'bench', 'probe.mjs');
// USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux.
const CLOCK_TICKS = 100;
const PROBE_TIMEOUT_MS = 60_000;

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}
export interface ProbeReport {
  windowMs: number;
  loopDelay: LoopDelay;
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number };
}

interface MeasuredProcessOptions {
  /** What to run: node flags and the script, e.g. ['--enable-source-maps', 'main.mjs']. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Resolves true when the process is ready (polled every 50 ms). */
  ready: () => Promise<boolean>;
  readyTimeoutMs?: number;
}

export interface MeasuredProcess {
  readonly pid: number;
  probe(command: 'reset' | 'report' | 'gc' | 'profile-start' | 'profile-stop', extra?: Record<string, unknown>): Promise<ProbeReport>;
  /** user+system CPU seconds used so far. */
  cpuSeconds(): number;
  /** Resident set size in bytes (VmRSS). */
  rss(): number;
  /** Open file descriptors. */
  fds(): number;
  /** SIGTERM, SIGKILL after a timeout; resolves when it has exited. */
  stop(timeoutMs?: number): Promise<void>;
  tail(lines?: number): string;
}

async function startMeasured(options: MeasuredProcessOptions): Promise<MeasuredProcess> {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const recent: string[] = [];
  const { child, exited } = spawnOwned(process.execPath, ['--import', PROBE, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start process');
  const record = (chunk: Buffer) => {
    log.write(chunk);
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      recent.push(line);
      if (recent.length > 60) recent.shift();
    }
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const tail = (lines = 30) => recent.slice(-lines).join('\n');

  const waiting = new Map<string, (report: ProbeReport) => void>();
  child.on('message', (message: { probe?: string } & ProbeReport) => {
    const resolve = message?.probe ? waiting.get(message.probe) : undefined;
    if (resolve) {
      waiting.delete(message.probe!);
      resolve(message);
    }
  });

  const until = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`process exited while starting (${child.exitCode ?? child.signalCode}):\n${tail()}`);
    }
    if (await options.ready().catch(() => false)) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`process not ready in time:\n${tail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const stat = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return {
    pid,
    probe(command, extra) {
      return new Promise((resolve, reject) => {
        // A server whose event loop is starved (a saturated PGlite) answers late, or not at all.
        const timer = setTimeout(() => {
          waiting.delete(command);
          reject(new Error(`the server did not answer the probe (${command}) within ${PROBE_TIMEOUT_MS / 1000} s: its event loop is starved`));
        }, PROBE_TIMEOUT_MS);
        waiting.set(command, (report) => {
          clearTimeout(timer);
          resolve(report);
        });
        child.send({ probe: command, ...extra });
      });
    },
    cpuSeconds() {
      const fields = stat();
      // After "pid (comm) ": field 3 is index 0, so utime (14) and stime (15) are 11 and 12.
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    rss() {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : NaN;
    },
    fds() {
      try {
        return readdirSync(`/proc/${pid}/fd`).length;
      } catch {
        return NaN;
      }
    },
    async stop(timeoutMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => log.end(resolve));
    },
    tail,
  };
}

/** Polls /api/health until it answers 200. */
const healthReady = (url: string) => async () => (await fetch(`${url}/api/health`)).ok;

export interface ServerUnderTestOptions {
  entry: string;
  cwd?: string;
  port: number;
  dataDir: string;
  logFile: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
}

/** The production server bundle as `npm start` runs it, API and socket only unless env says otherwise. */
export function startServer(options: ServerUnderTestOptions): Promise<MeasuredProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  return startMeasured({
    args: [...(options.nodeArgs ?? []), '--enable-source-maps', options.entry],
    cwd: options.cwd ?? REPO_ROOT,
    env: {
      ...productionServerEnv({ port: options.port, dataDir: options.dataDir, projectId: 'parley-bench' }),
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      // The benchmark measures delivery, not the per-user limiter (a load test sends far faster
      // than any person): switched off, as .env.local.example suggests for load tests.
      ...Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [rateLimitVar(name), 'off'])),
      // Production's default level (connections are logged, messages are not).
      LOG_LEVEL: 'info',
      ...options.env,
    },
    logFile: options.logFile,
    ready: healthReady(url),
  });
}

/** bench/floor-server.mjs: the bare Socket.IO relay. */
export function startFloor(options: { port: number; logFile: string; nodeArgs?: string[] }): Promise<MeasuredProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  return startMeasured({
    args: [...(options.nodeArgs ?? []), path.join(REPO_ROOT, 'bench', 'floor-server.mjs')],
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(options.port) },
    logFile: options.logFile,
    ready: healthReady(url),
  });
}

/** Runs a TypeScript script with tsx and returns its stdout (the seed scripts print JSON). */
export async function runTs(script: string, args: string[], cwd = REPO_ROOT): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd,
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? '' },
  });
  return stdout;
}
