// Part 5: one account flooding, everyone else's sends. The production server with its DEFAULT
// limits (the other sections switch them off); other users send at a person's pace while nothing
// else happens, then again while one account holds many sockets, each looping a full-page `sync`,
// a `read` and a `send` as fast as answers come back (bench/flood-worker.ts, a process of its own).
// Reported side by side from the same run: the other users' send→ack latency and the health
// probe's, unflooded and flooded, and how the flood was answered.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { closeAll, connectAll, type BenchUser, type ConnectedClient } from './clients';
import type { FloodTally } from './flood-worker';
import { freePort, startServer, type MeasuredProcess, type ProbeReport } from './processes';
import { delay, percentiles, round, rounded } from './stats';

export interface FloodPhase {
  /** Other users' send → ack (ms), every send of the phase. */
  send: Record<string, number | string>;
  sent: number;
  acked: number;
  /** Sends answered with an error (rate limit, busy, other), or not at all. */
  refused: number;
  /** GET /api/health round trips (ms), ten a second. */
  health: Record<string, number | string>;
  serverCpuPercent: number;
  loopDelay: ProbeReport['loopDelay'];
}

export interface FloodResult {
  victims: number;
  perVictimRate: number;
  attackerSockets: number;
  attackerMessages: number;
  durationS: number;
  unflooded: FloodPhase;
  flooded: FloodPhase;
  attacker: FloodTally | null;
}

export interface FloodOptions {
  dir: string;
  entry: string;
  seed: (dir: string, count: number, prefix: string, extra?: string[]) => Promise<{ users: BenchUser[] }>;
  log: (line: string) => void;
  /** Sockets the flooding account opens (more than the per-user cap, which then evicts the oldest). */
  sockets: number;
  durationS: number;
  /** Other users sending, each to a partner of their own. */
  victims: number;
  /** Messages the flooding account already has, so each of its syncs reads a full page. */
  thread: number;
}

// Below the default send limit (5/s): these are people, and must never meet the limiter.
const PER_VICTIM_RATE = 2;
const HEALTH_EVERY_MS = 100;
const ACK_TIMEOUT_MS = 10_000;

async function measure(server: MeasuredProcess, url: string, senders: ConnectedClient[], partners: ConnectedClient[], durationS: number): Promise<FloodPhase> {
  const latencies: number[] = [];
  const health: number[] = [];
  let acked = 0;
  let refused = 0;
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
      const payload = { client_id: randomUUID(), recipient_id: partners[index]!.user.id, text: 'a person’s message' };
      pending.push(
        client.socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('send', payload)
          .then(
            (ack: { data?: unknown }) => {
              latencies.push(performance.now() - sent);
              if (ack && 'data' in ack) acked++;
              else refused++;
            },
            () => {
              latencies.push(Infinity);
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
  return {
    send: rounded(percentiles(latencies)),
    sent: latencies.length,
    acked,
    refused,
    health: rounded(percentiles(health)),
    serverCpuPercent: round(((server.cpuSeconds() - cpuStart) / elapsedS) * 100, 1),
    loopDelay: report.loopDelay,
  };
}

const READY_TIMEOUT_MS = 60_000;

function startAttacker(url: string, attacker: BenchUser, victimId: number, sockets: number) {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'flood-worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let tally: (value: FloodTally | null) => void = () => {};
  const tallied = new Promise<FloodTally | null>((resolve) => (tally = resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the flooding account's sockets were not all open within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    child.on('message', (message: { ready?: boolean; tally?: FloodTally }) => {
      if (message.ready) {
        clearTimeout(timer);
        resolve();
      }
      if (message.tally) tally(message.tally);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      tally(null);
      reject(new Error(`flood worker exited (${code})`));
    });
  });
  ready.catch(() => undefined);
  child.send({ start: { url, user: attacker, victimId, sockets } });
  let stopping: Promise<FloodTally | null> | undefined;
  const stop = () => {
    if (!stopping) {
      if (child.connected) child.send({ stop: true });
      stopping = tallied;
    }
    return stopping;
  };
  return { ready, stop };
}

export async function runFlood({ dir, entry, seed, log, sockets, durationS, victims, thread }: FloodOptions): Promise<FloodResult> {
  // User 1 floods (with a thread of `thread` messages with user 2, whom it also marks read); then
  // pairs of other people.
  const { users } = await seed(dir, 2 + 2 * victims, 'flood', ['--thread', String(thread), '--conversations', '1']);
  const [attacker, attackerPeer, ...people] = users as [BenchUser, BenchUser, ...BenchUser[]];
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Blank values are unset: the server's own defaults, limits and load shedding included.
  const defaults = { RATE_LIMIT_SEND: '', RATE_LIMIT_FOLLOW: '', RATE_LIMIT_SEARCH: '', RATE_LIMIT_UPLOAD: '', RATE_LIMIT_SYNC: '', RATE_LIMIT_EVENT: '', RATE_LIMIT_REQUEST: '' };
  const server = await startServer({ entry, port, dataDir: path.join(dir, 'data-flood'), logFile: path.join(dir, 'server-flood.log'), env: defaults });
  let clients: ConnectedClient[] = [];
  let attack: ReturnType<typeof startAttacker> | undefined;
  try {
    clients = await connectAll(people, { urls: [url], concurrency: 20 });
    const senders = clients.filter((_, index) => index % 2 === 0);
    const partners = clients.filter((_, index) => index % 2 === 1);
    log(`  ${senders.length} people sending ${PER_VICTIM_RATE}/s each; the flooding account has ${thread} messages`);

    const unflooded = await measure(server, url, senders, partners, durationS);
    log(`  unflooded: send p50 ${unflooded.send.p50} ms, p99 ${unflooded.send.p99} ms; health p99 ${unflooded.health.p99} ms; server CPU ${unflooded.serverCpuPercent}%`);

    attack = startAttacker(url, attacker, attackerPeer.id, sockets);
    await attack.ready;
    // Let the flood reach its stride (bursts spent) before measuring.
    await delay(Math.min(3_000, (durationS * 1000) / 3));
    const flooded = await measure(server, url, senders, partners, durationS);
    const tally = await attack.stop();
    log(`  flooded: send p50 ${flooded.send.p50} ms, p99 ${flooded.send.p99} ms; health p99 ${flooded.health.p99} ms; server CPU ${flooded.serverCpuPercent}%`);
    if (tally) {
      log(
        `  the flood: ${tally.answered} answered, ${tally.rateLimited} rate-limited, ${tally.busy} busy, ${tally.otherErrors} other errors, ` +
          `${tally.timedOut} unanswered; ${tally.evicted} sockets evicted, ${tally.connectFailures} refused connections`,
      );
    }
    return { victims: senders.length, perVictimRate: PER_VICTIM_RATE, attackerSockets: sockets, attackerMessages: thread, durationS, unflooded, flooded, attacker: tally };
  } finally {
    await attack?.stop();
    closeAll(clients);
    await server.stop();
  }
}
