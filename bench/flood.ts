// Part 5: one account flooding one path at a time, while another pair of people talk. The
// production server with its DEFAULT limits (the other sections switch them off). For each path
// (bench/flood-paths.ts): the other people send at a person's pace with nothing else going on
// (quiet), then again while one account floods that path as fast as answers come back (flooded,
// bench/flood-worker.ts, a process of its own). Reported per path from the same run: another
// user's send→receive p50 / p99 quiet and flooded, and how the flood was answered.
//
// Quiet and flooded take turns, ROUNDS times per path, and each phase's figures pool its rounds:
// this machine's own background (another process, a slower minute) then falls on both phases
// alike instead of on whichever ran during it. The flooding process runs at the lowest CPU
// priority: an attacker's machine is not the server's, and here the two share two cores, so its
// own CPU (a fifth of a core reading 20 MB/s of downloads) would otherwise be counted against the
// server. It still floods at its limits: its tally says how many it was answered and refused. A
// flooded phase begins once the server has refused the flood (its burst spent, which a quiet
// phase may have refilled): what is measured is an account flooding at its sustained limit.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setPriority } from 'node:os';
import path from 'node:path';
import type { ConversationMessage } from '../lib/contract';
import type { SendPayload } from '../lib/contract/schemas';
import { RATE_LIMIT_NAMES, rateLimitVar } from '../server/security/rate-limit';
import { closeAll, connectAll, type BenchUser, type ConnectedClient } from './clients';
import { newTally, UNLIMITED_PATHS, type FloodPath, type FloodTally } from './flood-paths';
import { freePort, startServer, type MeasuredProcess, type ProbeReport } from './processes';
import { delay, percentiles, round, rounded } from './stats';

interface FloodPhase {
  /** Other users' send → the recipient's `message` event (ms); a message never received is ∞. */
  receive: Record<string, number | string>;
  /** Other users' send → ack (ms). */
  ack: Record<string, number | string>;
  sent: number;
  /** Sends answered with an error (rate limit, busy, other), or not at all. */
  refused: number;
  /** GET /api/health round trips (ms), ten a second. */
  health: Record<string, number | string>;
  serverCpuPercent: number;
  loopDelay: ProbeReport['loopDelay'];
  /** The server's memory at the phase's end. */
  memory: ProbeReport['memory'];
}

interface FloodPathResult {
  path: FloodPath;
  loops: number;
  /** Quiet then flooded, this many times; each phase's figures pool its rounds (older figure files: 1). */
  rounds?: number;
  quiet: FloodPhase;
  flooded: FloodPhase;
  attacker: FloodTally | null;
  /** The server's CPU profile of the flooded phase (--profile). */
  profileFile?: string;
}

export interface FloodResult {
  victims: number;
  perVictimRate: number;
  attackerMessages: number;
  durationS: number;
  /** Quiet then flooded, this many times per path (older figure files: 1). */
  rounds?: number;
  paths: FloodPathResult[];
}

export interface FloodOptions {
  dir: string;
  entry: string;
  seed: (dir: string, count: number, prefix: string, extra?: string[]) => Promise<{ users: BenchUser[] }>;
  log: (line: string) => void;
  /** Loops (sockets, requests in flight) the flooding account runs at once on each path. */
  loops: number;
  durationS: number;
  /** Other users sending, each to a partner of their own. */
  victims: number;
  /** Quiet then flooded, this many times per path, durationS / rounds each time. */
  rounds: number;
  /** Messages the flooding account already has, so its syncs, pages and exports read full pages. */
  thread: number;
  paths: readonly FloodPath[];
  /** A CPU profile of the server during each flooded phase: `<profilePrefix>-<path>.cpuprofile`. */
  profilePrefix?: string;
}

// Below the default send limit (5/s): these are people, and must never meet the limiter.
const PER_VICTIM_RATE = 2;
const HEALTH_EVERY_MS = 100;
const ACK_TIMEOUT_MS = 10_000;
/** After the last send, how long its message may still arrive. */
const RECEIVE_GRACE_MS = 3_000;
/** The flood is measured from a second after it was first refused (its burst spent), to its end. */
const STRIDE_MS = 1_000;
/** After a flood, the server is quiet again once this many sends in a row are acked within SETTLED_MS. */
const SETTLED_IN_A_ROW = 5;
const SETTLED_MS = 100;
const SETTLE_MAX_MS = 60_000;
/** A freshly started server compiles its hot paths in its first seconds: sends at the people's pace, not measured. */
const WARMUP_S = 15;
/** The lowest CPU priority (nice 19), for the flooding process. */
const LOWEST_PRIORITY = 19;

/** One stretch of sends, as measured: pooled with the phase's other rounds by summarize. */
interface PhaseSamples {
  receive: number[];
  ack: number[];
  health: number[];
  refused: number;
  cpuSeconds: number;
  elapsedS: number;
  report: ProbeReport;
}

function summarize(rounds: PhaseSamples[]): FloodPhase {
  const all = (pick: (round: PhaseSamples) => number[]) => rounds.flatMap(pick);
  const elapsedS = rounds.reduce((sum, one) => sum + one.elapsedS, 0);
  const cpuSeconds = rounds.reduce((sum, one) => sum + one.cpuSeconds, 0);
  // The round whose event loop was held longest speaks for the phase; memory as it ended.
  const worst = rounds.reduce((a, b) => (b.report.loopDelay.max > a.report.loopDelay.max ? b : a));
  return {
    receive: rounded(percentiles(all((one) => one.receive))),
    ack: rounded(percentiles(all((one) => one.ack))),
    sent: all((one) => one.ack).length,
    refused: rounds.reduce((sum, one) => sum + one.refused, 0),
    health: rounded(percentiles(all((one) => one.health))),
    serverCpuPercent: round((cpuSeconds / elapsedS) * 100, 1),
    loopDelay: worst.report.loopDelay,
    memory: rounds[rounds.length - 1]!.report.memory,
  };
}

async function measure(server: MeasuredProcess, url: string, senders: ConnectedClient[], partners: ConnectedClient[], durationS: number): Promise<PhaseSamples> {
  const receive: number[] = [];
  const ack: number[] = [];
  const health: number[] = [];
  const waiting = new Map<string, number>();
  let refused = 0;
  const onMessage = (message: ConversationMessage) => {
    const sent = waiting.get(message.text);
    if (sent === undefined) return;
    waiting.delete(message.text);
    receive.push(performance.now() - sent);
  };
  for (const partner of partners) partner.socket.on('message', onMessage);
  await server.probe('reset');
  const cpuStart = server.cpuSeconds();
  const started = performance.now();
  const until = started + durationS * 1000;
  const pinging = (async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      await fetch(`${url}/api/health`).then((response) => response.arrayBuffer());
      health.push(performance.now() - sent);
      await delay(Math.max(0, HEALTH_EVERY_MS - (performance.now() - sent)));
    }
  })();
  const sending = senders.map(async (client, index) => {
    const everyMs = 1000 / PER_VICTIM_RATE;
    // Staggered, open loop: each send is due on schedule whatever happened to the previous one.
    const pending: Promise<void>[] = [];
    for (let due = started + (index / senders.length) * everyMs; due < until; due += everyMs) {
      await delay(Math.max(0, due - performance.now()));
      const sent = performance.now();
      const text = `a person’s message ${randomUUID()}`;
      waiting.set(text, sent);
      pending.push(
        client.socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('send', { client_id: randomUUID(), recipient_id: partners[index]!.user.id, text } satisfies SendPayload)
          .then(
            (answer: { data?: unknown }) => {
              ack.push(performance.now() - sent);
              if (!(answer && 'data' in answer)) refused++;
            },
            () => {
              ack.push(Infinity);
              refused++;
            },
          ),
      );
    }
    await Promise.all(pending);
  });
  await Promise.all([...sending, pinging]);
  const elapsedS = (performance.now() - started) / 1000;
  const report = await server.probe('report');
  const cpuSeconds = server.cpuSeconds() - cpuStart;
  const graceUntil = performance.now() + RECEIVE_GRACE_MS;
  while (waiting.size > 0 && performance.now() < graceUntil) await delay(50);
  for (const partner of partners) partner.socket.off('message', onMessage);
  // Never received: infinitely late, so a percentile past the received share shows it.
  for (let i = 0; i < waiting.size; i++) receive.push(Infinity);
  return { receive, ack, health, refused, cpuSeconds, elapsedS, report };
}

const READY_TIMEOUT_MS = 60_000;
/** A flood the server has not refused by then has no limit within reach: measured as it is. */
const LIMITED_TIMEOUT_MS = 30_000;

function startAttacker(job: { url: string; user: BenchUser; peerId: number; path: FloodPath; loops: number }) {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'flood-worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let tally: (value: FloodTally | null) => void = () => {};
  let limit: () => void = () => {};
  const limited = new Promise<void>((resolve) => {
    limit = resolve;
    setTimeout(resolve, LIMITED_TIMEOUT_MS).unref();
  });
  const tallied = new Promise<FloodTally | null>((resolve) => (tally = resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the flood of ${job.path} did not start within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    child.on('message', (message: { ready?: boolean; limited?: boolean; tally?: FloodTally; failed?: string }) => {
      if (message.limited) limit();
      if (message.ready) {
        clearTimeout(timer);
        resolve();
      }
      if (message.failed) reject(new Error(`the flood of ${job.path} failed: ${message.failed}`));
      if (message.tally) tally(message.tally);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      tally(null);
      reject(new Error(`flood worker exited (${code})`));
    });
  });
  ready.catch(() => undefined);
  if (child.pid !== undefined) setPriority(child.pid, LOWEST_PRIORITY);
  child.send({ start: job });
  let stopping: Promise<FloodTally | null> | undefined;
  const stop = () => {
    if (!stopping) {
      if (child.connected) child.send({ stop: true });
      stopping = tallied;
    }
    return stopping;
  };
  return { ready, limited, stop };
}

export async function runFlood({ dir, entry, seed, log, loops, durationS, victims, rounds, thread, paths, profilePrefix }: FloodOptions): Promise<FloodResult> {
  // User 1 floods (with a thread of `thread` messages with user 2, whom it also marks read); then
  // pairs of other people.
  const { users } = await seed(dir, 2 + 2 * victims, 'flood', ['--thread', String(thread), '--conversations', '1']);
  const [attacker, attackerPeer, ...people] = users as [BenchUser, BenchUser, ...BenchUser[]];
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Blank values are unset: the server's own defaults, limits and load shedding included.
  const defaults = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [rateLimitVar(name), '']));
  const server = await startServer({ entry, port, dataDir: path.join(dir, 'data-flood'), logFile: path.join(dir, 'server-flood.log'), env: defaults });
  let clients: ConnectedClient[] = [];
  const results: FloodPathResult[] = [];
  const roundS = durationS / rounds;
  try {
    clients = await connectAll(people, { urls: [url], concurrency: 20 });
    const senders = clients.filter((_, index) => index % 2 === 0);
    const partners = clients.filter((_, index) => index % 2 === 1);
    log(`  ${senders.length} people sending ${PER_VICTIM_RATE}/s each; the flooding account has ${thread} messages; ${loops} loops per path; ${rounds} rounds of ${round(roundS, 1)} s quiet, ${round(roundS, 1)} s flooded`);
    await measure(server, url, senders, partners, WARMUP_S);
    for (const floodPath of paths) {
      const quiet: PhaseSamples[] = [];
      const flooded: PhaseSamples[] = [];
      const tallies: FloodTally[] = [];
      let profileFile: string | undefined;
      for (let turn = 0; turn < rounds; turn++) {
        quiet.push(await measure(server, url, senders, partners, roundS));
        const attack = startAttacker({ url, user: attacker, peerId: attackerPeer.id, path: floodPath, loops });
        try {
          await attack.ready;
          // At its limits: its burst spent (a quiet phase may have refilled it), then a second more.
          if (!UNLIMITED_PATHS.has(floodPath)) await attack.limited;
          await delay(STRIDE_MS);
          // The first round's flood is profiled: one file per path.
          const profiling = profilePrefix !== undefined && turn === 0;
          if (profiling) {
            profileFile = `${profilePrefix}-${floodPath}.cpuprofile`;
            await server.probe('profile-start');
          }
          flooded.push(await measure(server, url, senders, partners, roundS));
          if (profiling) await server.probe('profile-stop', { file: profileFile });
        } finally {
          await attack.stop();
        }
        const tally = await attack.stop();
        if (tally) tallies.push(tally);
        await settle(senders, partners);
      }
      const result: FloodPathResult = {
        path: floodPath,
        loops,
        rounds,
        quiet: summarize(quiet),
        flooded: summarize(flooded),
        attacker: tallies.length === rounds ? addTallies(tallies) : null,
        ...(profileFile ? { profileFile } : {}),
      };
      results.push(result);
      log(`  ${describe(result)}`);
    }
    return { victims: senders.length, perVictimRate: PER_VICTIM_RATE, attackerMessages: thread, durationS, rounds, paths: results };
  } finally {
    closeAll(clients);
    await server.stop();
  }
}

/** The flood's rounds as one: counts and time added, CPU weighted by time. */
function addTallies(tallies: FloodTally[]): FloodTally {
  const total = newTally();
  let cpuMs = 0;
  for (const tally of tallies) {
    for (const key of Object.keys(total) as (keyof FloodTally)[]) if (key !== 'cpuPercent') total[key] += tally[key];
    cpuMs += (tally.cpuPercent / 100) * tally.durationMs;
  }
  total.cpuPercent = total.durationMs > 0 ? round((cpuMs / total.durationMs) * 100, 1) : 0;
  return total;
}

/**
 * Work the flood queued may outlive it: waits until sends are answered promptly again (or a minute
 * has passed), so the next path's quiet phase is quiet.
 */
async function settle(senders: ConnectedClient[], partners: ConnectedClient[]): Promise<void> {
  const until = performance.now() + SETTLE_MAX_MS;
  let prompt = 0;
  while (prompt < SETTLED_IN_A_ROW && performance.now() < until) {
    const sent = performance.now();
    const payload: SendPayload = { client_id: randomUUID(), recipient_id: partners[0]!.user.id, text: 'settling' };
    await senders[0]!.socket.timeout(SETTLE_MAX_MS).emitWithAck('send', payload).catch(() => undefined);
    prompt = performance.now() - sent <= SETTLED_MS ? prompt + 1 : 0;
    await delay(200);
  }
}

function describe({ path: floodPath, quiet, flooded, attacker }: FloodPathResult): string {
  const rate = (n: number) => (attacker ? round(n / (attacker.durationMs / 1000), 0) : 0);
  return (
    `${floodPath}: receive p50/p99 ${quiet.receive.p50}/${quiet.receive.p99} → ${flooded.receive.p50}/${flooded.receive.p99} ms; ` +
    `refused ${flooded.refused}; CPU ${quiet.serverCpuPercent}% → ${flooded.serverCpuPercent}%` +
    (attacker ? `; flood ${rate(attacker.answered)}/s answered, ${rate(attacker.rateLimited)}/s limited, ${rate(attacker.busy)}/s busy, ${attacker.evicted} evicted, flood process CPU ${attacker.cpuPercent}%` : '')
  );
}

