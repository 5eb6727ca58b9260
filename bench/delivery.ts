// Parts 1 and 2: the same load against the production server and against the floor relay, each a
// fresh process with the probe preloaded. Server CPU and RSS are read from /proc during each
// phase, its event-loop delay from the probe (reset at the phase's start, read at its end).
import { closeAll, connectAll, loopbackSources, type BenchUser, type ConnectedClient } from './clients';
import { startChangeTraffic, type ChangeTrafficFigures } from './change-traffic';
import { startLiveTraffic, type LiveTrafficFigures } from './live-traffic';
import { runPhase, type PhaseOptions, type PhaseResult } from './load';
import type { BenchOptions } from './options';
import type { MeasuredProcess, ProbeReport } from './processes';
import { round } from './stats';

export type DeliveryOptions = Pick<
  BenchOptions,
  'users' | 'rate' | 'durationS' | 'warmupS' | 'peakRate' | 'peakDurationS' | 'capacityConcurrency' | 'capacityDurationS' | 'drainS' | 'typing' | 'changes'
>;

/** The share of users typing in the `steady+typing` phase. */
const TYPING_SHARE = 0.1;

interface ServerFigures {
  cpuPercent: number;
  rssMaxMiB: number;
  rssEndMiB: number;
  loopDelay: ProbeReport['loopDelay'];
  heapUsedMiB: number;
}

interface MeasuredPhase extends Omit<PhaseResult, 'raw'> {
  server: ServerFigures;
  notes: string[];
  /** The typing and presence traffic that ran beside the messages (`steady+typing`). */
  live?: LiveTrafficFigures;
  /** The reactions and reads that ran beside the messages (`steady+changes`). */
  changes?: ChangeTrafficFigures;
}

type PlannedPhase = PhaseOptions & { profile?: boolean; live?: boolean; changes?: boolean };

/** The share of users reacting and reading in the `steady+changes` phase. */
const CHANGES_SHARE = 0.1;

export interface TargetRun {
  target: 'parley' | 'floor';
  /** Server processes the clients were spread over. */
  nodes: number;
  users: number;
  connectMs: number;
  serverRssIdleMiB: number;
  phases: MeasuredPhase[];
}

/** One phase, with the servers' CPU (summed), RSS (summed) and event-loop delay (the worst node). */
async function measured(
  servers: MeasuredProcess[],
  clients: ConnectedClient[],
  phase: PlannedPhase,
  log: (line: string) => void,
  profileFile?: string,
): Promise<MeasuredPhase> {
  const notes: string[] = [];
  const attempt = async <T>(what: Promise<T>): Promise<T | null> => {
    try {
      return await what;
    } catch (error) {
      notes.push(error instanceof Error ? error.message : String(error));
      return null;
    }
  };
  const cpuSeconds = () => servers.reduce((sum, server) => sum + server.cpuSeconds(), 0);
  const rss = () => servers.reduce((sum, server) => sum + server.rss(), 0);
  // The profile is of the first node (with one node, of the server).
  if (profileFile) await attempt(servers[0]!.probe('profile-start'));
  await Promise.all(servers.map((server) => attempt(server.probe('reset'))));
  const cpuStart = cpuSeconds();
  const started = performance.now();
  let rssMax = rss();
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rss());
  }, 250);
  const live = phase.live ? startLiveTraffic(clients, { share: TYPING_SHARE }) : null;
  const changes = phase.changes ? startChangeTraffic(clients, { share: CHANGES_SHARE }) : null;
  const result = await runPhase(clients, phase);
  const liveFigures = live?.stop();
  const changeFigures = changes?.stop();
  clearInterval(sampler);
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuStart;
  const reports = (await Promise.all(servers.map((server) => attempt(server.probe('report'))))).filter((report) => report !== null);
  if (profileFile) await attempt(servers[0]!.probe('profile-stop', { file: profileFile }));
  const worst = reports.length === servers.length ? reports.reduce((a, b) => (b.loopDelay.p99 > a.loopDelay.p99 ? b : a)) : null;
  const report = worst && { loopDelay: worst.loopDelay, memory: { heapUsed: reports.reduce((sum, r) => sum + r.memory.heapUsed, 0) } };
  const noReport = { p50: NaN, p99: NaN, max: NaN, mean: NaN, samples: 0 };
  const rssEnd = rss();
  const { raw, ...rest } = result;
  void raw;
  const figures: MeasuredPhase = {
    ...rest,
    server: {
      cpuPercent: round((cpu / elapsedS) * 100, 1),
      rssMaxMiB: round(Math.max(rssMax, rssEnd) / 1048576, 1),
      rssEndMiB: round(rssEnd / 1048576, 1),
      loopDelay: report?.loopDelay ?? noReport,
      heapUsedMiB: report ? round(report.memory.heapUsed / 1048576, 1) : NaN,
    },
    notes,
    ...(liveFigures && { live: liveFigures }),
    ...(changeFigures && { changes: changeFigures }),
  };
  log(
    `  ${phase.name}: sent ${result.sent} (${result.sentRate}/s), acked ${result.acked}, received ${result.received}, ` +
      `lost ${result.lost}, unacked ${result.unacked}; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms` +
      (result.latencyByRoute ? ` (same node p99 ${result.latencyByRoute.sameNode.p99} ms, cross node p99 ${result.latencyByRoute.crossNode.p99} ms)` : '') +
      (result.saturatedAtMs !== null ? `; SATURATED at ${result.saturatedAtMs} ms` : '') +
      `; server CPU ${figures.server.cpuPercent}%, loop p99 ${figures.server.loopDelay.p99} ms; load generator CPU ${result.generatorCpuPercent}%` +
      (liveFigures
        ? `; ${liveFigures.typers} typing: ${liveFigures.typingSent} signals (${liveFigures.typingErrors} refused), ${liveFigures.typingReceived} received, ${liveFigures.presenceSubscriptions} presence subscriptions (${liveFigures.presenceErrors} refused)`
        : '') +
      (changeFigures
        ? `; ${changeFigures.changers} changing: ${changeFigures.changesSent} changes (${changeFigures.changesErrors} refused), ${changeFigures.changesReceived} pushes received`
        : '') +
      (notes.length ? `; ${notes.join('; ')}` : ''),
  );
  return figures;
}

/**
 * Connects the users and runs warm-up, the steady phase, the peak phase and the capacity phase.
 * A phase that ends with messages still unacknowledged (a saturated server) leaves a backlog that
 * would run into the next phase, so the server is then restarted (same data) and the clients
 * reconnected before going on.
 */
export async function runDeliveryAgainst(
  target: 'parley' | 'floor',
  /** Starts the target's processes: one, or one per node (clients spread over them in turn). */
  start: () => Promise<MeasuredProcess[]>,
  urls: string[],
  users: BenchUser[],
  options: DeliveryOptions,
  log: (line: string) => void,
  /** Profile the steady phase's server CPU into this file (the figures then include the profiler's cost). */
  profileFile?: string,
): Promise<TargetRun> {
  let servers = await start();
  let clients: ConnectedClient[] = [];
  const stopAll = (timeoutMs?: number) => Promise.all(servers.map((server) => server.stop(timeoutMs)));
  const connect = async () => {
    const connectStart = performance.now();
    clients = await connectAll(users, { urls, concurrency: 100, sourceAddresses: loopbackSources(4) });
    return Math.round(performance.now() - connectStart);
  };
  const drainMs = options.drainS * 1000;
  const phases: MeasuredPhase[] = [];
  let connectMs = 0;
  let serverRssIdleMiB = 0;
  try {
    connectMs = await connect();
    log(`  ${users.length} clients connected and initialised in ${connectMs} ms`);
    serverRssIdleMiB = round(servers.reduce((sum, server) => sum + server.rss(), 0) / 1048576, 1);
    const plan: PlannedPhase[] = [];
    if (options.warmupS > 0) plan.push({ name: 'warm-up', mode: 'open', rate: options.rate, durationMs: options.warmupS * 1000, drainMs });
    plan.push({ name: 'steady', mode: 'open', rate: options.rate, durationMs: options.durationS * 1000, drainMs, profile: true });
    // The same load with typing and presence beside it, then reactions and reads: each followed by
    // the plain load again, so each is compared with the phases on either side of it (a saturated
    // server drifts from one minute to the next; one phase before it alone would blame the traffic).
    // The floor relays no typing and has no changes, so it runs neither.
    const sameLoad = { mode: 'open' as const, rate: options.rate, durationMs: options.durationS * 1000, drainMs };
    if (options.typing && target === 'parley') {
      plan.push({ name: 'steady+typing', ...sameLoad, live: true }, { name: 'steady after typing', ...sameLoad });
    }
    if (options.changes && target === 'parley') {
      plan.push({ name: 'steady+changes', ...sameLoad, changes: true }, { name: 'steady after changes', ...sameLoad });
    }
    if (options.peakDurationS > 0) plan.push({ name: 'peak', mode: 'open', rate: options.peakRate, durationMs: options.peakDurationS * 1000, drainMs });
    if (options.capacityDurationS > 0) {
      plan.push({ name: 'capacity', mode: 'closed', concurrency: Math.min(options.capacityConcurrency, users.length), durationMs: options.capacityDurationS * 1000, drainMs });
    }
    for (const [index, phase] of plan.entries()) {
      const result = await measured(servers, clients, phase, log, phase.profile ? profileFile : undefined);
      phases.push(result);
      if ((result.unacked > 0 || result.saturatedAtMs !== null || result.notes.length > 0) && index < plan.length - 1) {
        log(`  ${result.unacked} messages still unacknowledged: restarting the server so its backlog stays out of the next phase`);
        closeAll(clients);
        await stopAll(2_000);
        servers = await start();
        await connect();
      }
    }
  } finally {
    closeAll(clients);
    await stopAll();
  }
  return { target, nodes: urls.length, users: users.length, connectMs, serverRssIdleMiB, phases };
}

export const phaseOf = (run: TargetRun | undefined, name: string) => run?.phases.find((phase) => phase.name === name);

