// The delivery load: messages between random pairs of connected clients, all in this process, so
// sender and receiver read one clock (performance.now()). Each message's text carries its phase,
// its index and its send time; the receiver looks the index up, so nothing is matched by guesswork.
//
// Open loop (the targets' "M msg/s"): message k is due at start + k/M whatever happened to the
// earlier ones, so a slow server shows as latency, not as a politely lower rate. If more than
// `maxBacklogS` seconds of messages are unacknowledged the server is saturated: sending stops there
// and the phase says so. Closed loop (capacity): `concurrency` senders, each sending its next
// message when the previous one is acknowledged (as the app's outbox does), as fast as it goes.
import { randomUUID } from 'node:crypto';
import type { Ack, ConversationMessage } from '../lib/contract';
import type { SendPayload } from '../lib/contract/schemas';
import type { ConnectedClient } from './clients';
import { delay, loopMonitor, percentiles, rounded, round, type Percentiles } from './stats';

export interface PhaseOptions {
  name: string;
  mode: 'open' | 'closed';
  /** msg/s (open loop). */
  rate?: number;
  /** Senders with one message in flight each (closed loop). */
  concurrency?: number;
  durationMs: number;
  /** After sending stops, how long to wait for outstanding acks and deliveries. */
  drainMs?: number;
  maxBacklogS?: number;
}

export interface PhaseResult {
  name: string;
  mode: 'open' | 'closed';
  targetRate: number | null;
  concurrency: number | null;
  durationMs: number;
  /** Sending stopped early: this many ms in, the unacknowledged backlog exceeded maxBacklogS. */
  saturatedAtMs: number | null;
  sent: number;
  acked: number;
  ackErrors: number;
  firstAckError: string | null;
  received: number;
  /** Acknowledged (stored) but not delivered to the recipient's socket by the end of the drain. */
  lost: number;
  /** No ack by the end of the drain. */
  unacked: number;
  duplicates: number;
  misrouted: number;
  disconnects: number;
  /** Messages sent per second of sending. */
  sentRate: number;
  /** Acknowledged per second, from the first send to the last ack. */
  ackedRate: number;
  /** Delivered per second, from the first send to the last delivery. */
  deliveredRate: number;
  latency: Record<string, number | string>;
  /** With several server nodes: send→receive for pairs on the same node and on different nodes. */
  latencyByRoute: { sameNode: Record<string, number | string>; crossNode: Record<string, number | string> } | null;
  ack: Record<string, number | string>;
  /** How late the generator's sends were against their schedule (open loop). */
  scheduleLag: Record<string, number | string>;
  generatorLoopDelay: { p50: number; p99: number; max: number };
  /** This process's CPU over the phase (100 = one core): near 100 means the generator is the limit. */
  generatorCpuPercent: number;
  raw: { latency: Percentiles; ack: Percentiles };
}

interface Tracker {
  phase: string;
  sendAt: Float64Array;
  ackAt: Float64Array;
  /** 1 when the ack carried the stored message (`data`), 0 for an error ack (refused, busy). */
  stored: Uint8Array;
  recvAt: Float64Array;
  recipient: Int32Array;
  /** 1 when sender and recipient are connected to different nodes. */
  crossNode: Uint8Array;
  received: number;
  duplicates: number;
  misrouted: number;
}

let phaseCounter = 0;
let current: Tracker | null = null;
const listening = new WeakSet<object>();

/** One `message` listener per socket for the whole run; it reports into the current phase. */
function listen(clients: ConnectedClient[]): void {
  for (const client of clients) {
    if (listening.has(client.socket)) continue;
    listening.add(client.socket);
    client.socket.on('message', (message: ConversationMessage | undefined) => {
      const now = performance.now();
      const tracker = current;
      const text = message?.text ?? '';
      const colon = text.indexOf(':');
      if (!tracker || text.slice(0, colon) !== tracker.phase) return;
      const k = Number.parseInt(text.slice(colon + 1), 10);
      if (!(k >= 0 && k < tracker.sendAt.length)) return;
      if (tracker.recipient[k] !== client.user.id) tracker.misrouted++;
      if (tracker.recvAt[k]! > 0) {
        tracker.duplicates++;
        return;
      }
      tracker.recvAt[k] = now;
      tracker.received++;
    });
  }
}

export async function runPhase(clients: ConnectedClient[], options: PhaseOptions): Promise<PhaseResult> {
  listen(clients);
  const rate = options.rate ?? 0;
  const concurrency = options.concurrency ?? 0;
  const capacity =
    options.mode === 'open'
      ? Math.ceil((rate * options.durationMs) / 1000) + 1
      : Math.ceil((options.durationMs / 1000) * 50_000) + concurrency; // more than any server here sustains
  const tracker: Tracker = {
    phase: `p${++phaseCounter}x${process.pid}`,
    sendAt: new Float64Array(capacity),
    stored: new Uint8Array(capacity),
    ackAt: new Float64Array(capacity),
    recvAt: new Float64Array(capacity),
    recipient: new Int32Array(capacity),
    crossNode: new Uint8Array(capacity),
    received: 0,
    duplicates: 0,
    misrouted: 0,
  };
  current = tracker;
  let disconnects = 0;
  const onDisconnect = () => disconnects++;
  for (const client of clients) client.socket.on('disconnect', onDisconnect);

  const lag: number[] = [];
  let sent = 0;
  let acked = 0;
  let ackErrors = 0;
  let firstAckError: string | null = null;
  let lastAckAt = 0;
  let saturatedAtMs: number | null = null;
  const monitor = loopMonitor();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const end = start + options.durationMs;
  let onAckHook: (() => void) | null = null;

  const send = () => {
    const k = sent++;
    const fromIndex = Math.floor(Math.random() * clients.length);
    let toIndex = Math.floor(Math.random() * (clients.length - 1));
    if (toIndex >= fromIndex) toIndex++;
    const from = clients[fromIndex]!;
    const to = clients[toIndex]!;
    tracker.recipient[k] = to.user.id;
    tracker.crossNode[k] = from.node === to.node ? 0 : 1;
    const at = performance.now();
    tracker.sendAt[k] = at;
    // By the person, as the app's outbox sends: the pair's first message begins their conversation.
    from.socket.emit(
      'send',
      { client_id: randomUUID(), recipient_id: to.user.id, text: `${tracker.phase}:${k}:${at.toFixed(3)}`, attachment_id: null } satisfies SendPayload,
      (ack: Ack<ConversationMessage> | undefined) => {
        const now = performance.now();
        tracker.ackAt[k] = now;
        lastAckAt = now;
        if (ack && 'data' in ack) {
          acked++;
          tracker.stored[k] = 1;
        }
        else {
          ackErrors++;
          firstAckError ??= JSON.stringify(ack);
        }
        onAckHook?.();
      },
    );
  };

  if (options.mode === 'open') {
    const interval = 1000 / rate;
    const maxBacklog = rate * (options.maxBacklogS ?? 5);
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        const due = Math.min(capacity, Math.floor(((Math.min(now, end) - start) * rate) / 1000) + 1);
        while (sent < due) {
          lag.push(now - (start + sent * interval));
          send();
        }
        if (sent - acked - ackErrors > maxBacklog) {
          saturatedAtMs = now - start;
          return resolve();
        }
        if (now >= end || sent >= capacity) return resolve();
        setTimeout(tick, 1);
      };
      tick();
    });
  } else {
    // Each ack sends its lane's next message: `concurrency` messages in flight, no more.
    onAckHook = () => {
      if (performance.now() < end && sent < capacity) send();
    };
    for (let i = 0; i < concurrency; i++) send();
    await delay(options.durationMs);
    onAckHook = null;
  }
  const sendingMs = performance.now() - start;

  // Drain: everything acknowledged and every acknowledged message delivered, or the time is up.
  const drainUntil = performance.now() + (options.drainMs ?? 10_000);
  const settled = () => {
    if (acked + ackErrors < sent) return false;
    for (let k = 0; k < sent; k++) if (tracker.stored[k] === 1 && tracker.recvAt[k] === 0) return false;
    return true;
  };
  while (performance.now() < drainUntil && !settled()) await delay(50);
  const generatorLoopDelay = monitor.report();
  const cpu = process.cpuUsage(cpuStart);
  const generatorCpuPercent = round(((cpu.user + cpu.system) / 1000 / (performance.now() - start)) * 100, 1);
  monitor.histogram.disable();
  for (const client of clients) client.socket.off('disconnect', onDisconnect);
  current = null;

  const latency = new Float64Array(sent);
  const ackLatency = new Float64Array(sent);
  let lost = 0;
  let unacked = 0;
  let lastRecvAt = 0;
  for (let k = 0; k < sent; k++) {
    const sendAt = tracker.sendAt[k]!;
    const ackAt = tracker.ackAt[k]!;
    const recvAt = tracker.recvAt[k]!;
    ackLatency[k] = ackAt > 0 ? ackAt - sendAt : Infinity;
    latency[k] = recvAt > 0 ? recvAt - sendAt : Infinity;
    if (ackAt === 0) unacked++;
    // Lost: stored (a `data` ack) and never delivered. An error ack (busy, refused) is counted in ackErrors.
    else if (tracker.stored[k] === 1 && recvAt === 0) lost++;
    if (recvAt > lastRecvAt) lastRecvAt = recvAt;
  }
  const latencyP = percentiles(latency);
  const multiNode = new Set(clients.map((client) => client.node)).size > 1;
  const onRoute = (cross: number) => latency.filter((_, k) => tracker.crossNode[k] === cross);
  const ackP = percentiles(ackLatency);
  return {
    name: options.name,
    mode: options.mode,
    targetRate: options.mode === 'open' ? rate : null,
    concurrency: options.mode === 'closed' ? concurrency : null,
    durationMs: options.durationMs,
    saturatedAtMs: saturatedAtMs === null ? null : Math.round(saturatedAtMs),
    sent,
    acked,
    ackErrors,
    firstAckError,
    received: tracker.received,
    lost,
    unacked,
    duplicates: tracker.duplicates,
    misrouted: tracker.misrouted,
    disconnects,
    sentRate: round(sent / (sendingMs / 1000), 1),
    ackedRate: round(acked / (((lastAckAt || start) - start) / 1000 || 1), 1),
    deliveredRate: round(tracker.received / (((lastRecvAt || start) - start) / 1000 || 1), 1),
    latency: rounded(latencyP),
    latencyByRoute: multiNode ? { sameNode: rounded(percentiles(onRoute(0))), crossNode: rounded(percentiles(onRoute(1))) } : null,
    ack: rounded(ackP),
    scheduleLag: rounded(percentiles(lag)),
    generatorLoopDelay,
    generatorCpuPercent,
    raw: { latency: latencyP, ack: ackP },
  };
}
