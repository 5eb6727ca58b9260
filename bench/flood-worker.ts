// The flooding account, in a child process of its own so its busy loops never slow the load
// generator measuring everyone else. Told over IPC: {url, user, victimId, sockets}; it opens that
// many sockets of the one account and has each loop, as fast as answers come back, a full-page
// `sync`, a `read` and a `send`; a socket the server disconnects (the per-user cap) is opened
// again, as a determined attacker would. It says {ready} once every socket has tried to connect; on
// {stop} it reports what it sent and how it was answered ({tally}).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { connectOne, type BenchUser } from './clients';

interface Start {
  url: string;
  user: BenchUser;
  victimId: number;
  sockets: number;
}

export interface FloodTally {
  /** Events emitted, by how they were answered. */
  answered: number;
  rateLimited: number;
  busy: number;
  otherErrors: number;
  timedOut: number;
  /** Sockets the server disconnected (the cap evicting the oldest), and connections refused. */
  evicted: number;
  connectFailures: number;
  durationMs: number;
}

const ACK_TIMEOUT_MS = 10_000;
const RECONNECT_PAUSE_MS = 100;
const tally: FloodTally = { answered: 0, rateLimited: 0, busy: 0, otherErrors: 0, timedOut: 0, evicted: 0, connectFailures: 0, durationMs: 0 };
let running = true;
const open = new Set<Socket>();
const started = performance.now();

process.on('message', (message: { start?: Start; stop?: boolean }) => {
  if (message.start) void start(message.start);
  if (message.stop) {
    running = false;
    tally.durationMs = Math.round(performance.now() - started);
    for (const socket of open) socket.close();
    process.send?.({ tally });
    setTimeout(() => process.exit(0), 100);
  }
});

function record(ack: unknown): void {
  const error = (ack as { error?: { msg?: string } } | null)?.error;
  if (!error) tally.answered++;
  else if (/^Too many requests/.test(error.msg ?? '')) tally.rateLimited++;
  else if (/busy/.test(error.msg ?? '')) tally.busy++;
  else tally.otherErrors++;
}

async function loop(socket: Socket, event: string, payload: () => unknown): Promise<void> {
  while (running && socket.connected) {
    try {
      record(await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload()));
    } catch {
      if (socket.connected) tally.timedOut++;
    }
  }
}

async function keepOne({ url, user, victimId }: Start, tried: () => void): Promise<void> {
  let first = true;
  while (running) {
    let socket: Socket;
    try {
      socket = await connectOne(url, user, undefined, 30_000);
    } catch {
      tally.connectFailures++;
      if (first) tried();
      first = false;
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS));
      continue;
    }
    open.add(socket);
    if (first) tried();
    first = false;
    const gone = new Promise<void>((resolve) => socket.once('disconnect', (reason) => {
      if (reason === 'io server disconnect') tally.evicted++;
      resolve();
    }));
    await Promise.all([
      loop(socket, 'sync', () => ({ after: 0, limit: 500 })),
      loop(socket, 'read', () => ({ user_id: victimId })),
      loop(socket, 'send', () => ({ client_id: randomUUID(), recipient_id: victimId, text: 'flood' })),
      gone,
    ]);
    open.delete(socket);
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS));
  }
}

async function start(options: Start): Promise<void> {
  let tried = 0;
  // Once every socket has tried to connect (the cap and the init budget refuse some), the flood is at full strength.
  const triedOne = () => {
    if (++tried === options.sockets) process.send?.({ ready: true });
  };
  await Promise.all(Array.from({ length: options.sockets }, () => keepOne(options, triedOne)));
}
