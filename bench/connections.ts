// Part 3: authenticated idle sockets. K seeded users each open one WebSocket with their token and
// send `init` (as a signed-in tab does), spread over worker processes and loopback source
// addresses; then everything sits idle for a while. Memory per socket is the server's RSS at K
// minus its RSS before the first socket, both right after a full GC (through the probe), over K.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { BenchUser } from './clients';
import { freePort, startServer, type LoopDelay, type MeasuredProcess } from './processes';
import { delay, round } from './stats';

/** Descriptors the server needs besides its sockets (PGlite files, listeners, stdio, ...). */
const SERVER_FD_MARGIN = 300;
const SOCKETS_PER_WORKER = 8_000;
const SOURCES_PER_WORKER = 4;

export interface ConnectionsResult {
  requested: number;
  reached: number;
  failures: number;
  firstFailure: string | null;
  cappedBy: string | null;
  workers: number;
  sourceAddresses: string[];
  rampMs: number;
  connectRate: number;
  baselineRssBytes: number;
  rssAtKBytes: number;
  rssPerSocketBytes: number;
  heapPerSocketBytes: number;
  serverFdsAtK: number;
  rampLoopDelay: LoopDelay;
  idleLoopDelay: LoopDelay;
  idleS: number;
  serverCpuPercentRamp: number;
  serverCpuPercentIdle: number;
  disconnectedWhileIdle: number;
  /** Server RSS (MiB, no GC) as the ramp went on. */
  curve: { sockets: number; rssMiB: number; atMs: number }[];
}

export interface ConnectionsOptions {
  dir: string;
  entry: string;
  sockets: number;
  idleS: number;
  seed: (dir: string, count: number, prefix: string) => Promise<{ users: BenchUser[]; seedMs: number }>;
  log: (line: string) => void;
}

export async function runConnections({ dir, entry, sockets, idleS, seed, log }: ConnectionsOptions): Promise<ConnectionsResult> {
  // Children inherit this process's soft limit (bench/run.sh raises it to the hard one).
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  const maxServerSockets = Number.isFinite(limit) ? limit - SERVER_FD_MARGIN : Infinity;
  const k = Math.min(sockets, maxServerSockets);
  const cappedBy = k < sockets ? `open-file limit ${limit} per process (ulimit -n, already at its hard limit)` : null;
  if (cappedBy) log(`  capped at ${k} sockets: ${cappedBy}`);

  const seeded = await seed(dir, k, 'conn');
  log(`  seeded ${seeded.users.length} users with sessions in ${seeded.seedMs} ms`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: MeasuredProcess = await startServer({ entry, port, dataDir: path.join(dir, 'data-conn'), logFile: path.join(dir, 'server-connections.log') });
  const workers: ChildProcess[] = [];
  try {
    // Let start-up work settle before the baseline.
    await delay(1000);
    const baseline = await server.probe('gc');
    const baselineRss = server.rss();
    log(`  server baseline after GC: RSS ${round(baselineRss / 1048576, 1)} MiB, heap ${round(baseline.memory.heapUsed / 1048576, 1)} MiB`);

    const workerCount = Math.ceil(k / SOCKETS_PER_WORKER);
    const sources: string[] = [];
    const progress = new Array<number>(workerCount).fill(0);
    const curve: ConnectionsResult['curve'] = [];
    let failures = 0;
    let firstFailure: string | null = null;
    let disconnected = 0;
    let nextMark = Math.ceil(k / 10);

    await server.probe('reset');
    const cpuStart = server.cpuSeconds();
    const rampStart = performance.now();
    const perWorker = Math.ceil(k / workerCount);
    const ready = seeded.users.reduce<Promise<void>[]>((all, _, index) => {
      if (index % perWorker !== 0) return all;
      const w = all.length;
      const share = seeded.users.slice(index, index + perWorker);
      const own = Array.from({ length: SOURCES_PER_WORKER }, (_, i) => `127.0.0.${2 + w * SOURCES_PER_WORKER + i}`);
      sources.push(...own);
      const child = fork(path.join(import.meta.dirname, 'conn-worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      workers.push(child);
      all.push(
        new Promise<void>((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`connection worker exited (${code})`)));
          child.on('message', (message: { progress?: number; ready?: number; failures?: number; firstFailure?: string | null; disconnected?: number }) => {
            if (message.progress !== undefined) {
              progress[w] = message.progress;
              const total = progress.reduce((a, b) => a + b, 0);
              if (total >= nextMark) {
                curve.push({ sockets: total, rssMiB: round(server.rss() / 1048576, 1), atMs: Math.round(performance.now() - rampStart) });
                log(`  ${total} sockets, server RSS ${round(server.rss() / 1048576, 1)} MiB, ${Math.round(performance.now() - rampStart)} ms`);
                nextMark += Math.ceil(k / 10);
              }
            }
            if (message.disconnected !== undefined) disconnected++;
            if (message.ready !== undefined) {
              progress[w] = message.ready;
              failures += message.failures ?? 0;
              firstFailure ??= message.firstFailure ?? null;
              resolve();
            }
          });
          child.send({ start: { url, users: share, sources: own, concurrency: 50 } });
        }),
      );
      return all;
    }, []);
    await Promise.all(ready);
    const rampMs = performance.now() - rampStart;
    const rampCpu = server.cpuSeconds() - cpuStart;
    const reached = progress.reduce((a, b) => a + b, 0);
    const ramp = await server.probe('report');
    log(`  ${reached} sockets in ${Math.round(rampMs)} ms (${failures} failed${firstFailure ? `: ${firstFailure}` : ''}); loop delay p99 ${ramp.loopDelay.p99} ms`);

    await server.probe('reset');
    const idleCpuStart = server.cpuSeconds();
    const disconnectedBefore = disconnected;
    await delay(idleS * 1000);
    const idle = await server.probe('report');
    const idleCpu = server.cpuSeconds() - idleCpuStart;
    const atK = await server.probe('gc');
    const rssAtK = server.rss();
    const fds = server.fds();
    log(`  idle ${idleS} s: loop delay p99 ${idle.loopDelay.p99} ms, max ${idle.loopDelay.max} ms; RSS after GC ${round(rssAtK / 1048576, 1)} MiB`);

    return {
      requested: sockets,
      reached,
      failures,
      firstFailure,
      cappedBy,
      workers: workerCount,
      sourceAddresses: sources,
      rampMs: Math.round(rampMs),
      connectRate: round(reached / (rampMs / 1000), 0),
      baselineRssBytes: baselineRss,
      rssAtKBytes: rssAtK,
      rssPerSocketBytes: reached ? Math.round((rssAtK - baselineRss) / reached) : NaN,
      heapPerSocketBytes: reached ? Math.round((atK.memory.heapUsed - baseline.memory.heapUsed) / reached) : NaN,
      serverFdsAtK: fds,
      rampLoopDelay: ramp.loopDelay,
      idleLoopDelay: idle.loopDelay,
      idleS,
      serverCpuPercentRamp: round((rampCpu / (rampMs / 1000)) * 100, 1),
      serverCpuPercentIdle: round((idleCpu / idleS) * 100, 1),
      disconnectedWhileIdle: disconnected - disconnectedBefore,
      curve,
    };
  } finally {
    for (const worker of workers) {
      worker.removeAllListeners('exit');
      if (worker.connected) worker.send({ close: true });
    }
    await Promise.all(workers.map((worker) => (worker.exitCode === null ? new Promise((resolve) => worker.once('exit', resolve)) : undefined)));
    await server.stop();
  }
}
