// SIGTERM to the production server (the bundle `npm start` runs, as a child process) while clients
// keep sending: it answers 503 to readiness, lets what is in flight finish, disconnects the
// sockets, and exits 0 with every acknowledged message stored.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServerBundle, freePort, serverProcess, type ServerProcess } from '../faults/server-process';
import { readStoredMessages } from '../faults/verify';
import { waitUntil, within } from '../testing/wait';
import { SOCKET_PROTOCOL, type Ack, type ConversationMessage } from '../lib/contract';
import { openDatabase } from './db/engine/open-database';
import { seedDatabase, type SeededUser } from '../testing/seed';
import { RESTARTING_MSG } from './realtime/ack';

const USERS = 6;
/** Sends each client keeps in flight, so some are always mid-way when SIGTERM arrives. */
const IN_FLIGHT_PER_CLIENT = 3;

let dir: string;
let server: ServerProcess | undefined;
const sockets: Socket[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-shutdown-'));
}, 10_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Sender {
  socket: Socket;
  acked: ConversationMessage[];
  ackedAfterSigterm: number;
  refusedAsRestarting: number;
  disconnectReason?: string;
}

it('on SIGTERM: ready turns 503, sends are answered through the drain, the server closes every socket, exits 0, every ack is stored', async () => {
  const dataDir = path.join(dir, 'data');
  const [users, entry, port] = await Promise.all([
    seedDatabase({ dataDir, count: USERS, prefix: 'shutdown' }),
    buildServerBundle(path.join(dir, 'build')),
    freePort(),
  ]);
  server = serverProcess({
    entry,
    port,
    dataDir,
    logFile: path.join(dir, 'server.log'),
    // The drain keeps the node serving (ready: 503) for a moment, as behind a load balancer.
    // LOG_LEVEL info: the server's own 'socket disconnected' lines say who closed each socket.
    env: { RATE_LIMIT_SEND: 'off', SHUTDOWN_DRAIN_MS: '1000', LOG_LEVEL: 'info' },
  });
  await server.start();

  let sigtermSent = false;
  const senders = await Promise.all(users.map((user, index) => openSender(server!.url, user, users[(index + 1) % USERS]!, () => sigtermSent)));
  await waitUntil(() => senders.every((sender) => sender.acked.length >= 5), { timeoutMs: 60_000, what: 'traffic flowing' });

  sigtermSent = true;
  const stopped = server.stop();
  const readyAnswers: (number | 'refused')[] = [];
  while (server.running) {
    readyAnswers.push(await fetch(`${server.url}/api/ready`).then((response) => response.status, () => 'refused' as const));
  }
  await stopped;

  expect(server.exit, server.tail()).toEqual({ code: 0, signal: null });
  expect(server.errorLines()).toEqual([]);
  // Readiness failed before the node went away, and it never said ready again.
  expect(readyAnswers).toContain(503);
  expect(readyAnswers.slice(readyAnswers.indexOf(503))).not.toContain(200);
  // New connections are refused once it has stopped accepting.
  expect(await fetch(`${server.url}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused');

  // Every socket was closed by the server before it exited (not cut by the process dying): the
  // client sees a transport close, which it answers by reconnecting (elsewhere) and catching up.
  await within(10_000, Promise.all(senders.map((sender) => disconnected(sender))), 'every socket disconnected');
  for (const sender of senders) expect(sender.disconnectReason).toBe('transport close');
  const log = await readFile(path.join(dir, 'server.log'), 'utf8');
  const closedByServer = log.split('\n').filter((line) => line.includes('"reason":"server shutting down"'));
  expect(closedByServer).toHaveLength(USERS);
  // Sends kept going through the drain: some were acknowledged after SIGTERM.
  expect(senders.reduce((sum, sender) => sum + sender.ackedAfterSigterm, 0)).toBeGreaterThan(0);

  // Every acknowledged message is in the database, as acknowledged.
  const database = await openDatabase({ dataDir });
  try {
    const stored = new Map((await readStoredMessages(database.db)).map((row) => [row.id, row]));
    const acked = senders.flatMap((sender) => sender.acked);
    for (const message of acked) {
      expect(stored.get(message.id), `message ${message.id}`).toMatchObject({ clientId: message.client_id, text: message.text });
    }
  } finally {
    await database.close();
  }
}, 240_000);

/** A connected, initialised client that keeps IN_FLIGHT_PER_CLIENT sends going until its socket closes. */
async function openSender(url: string, user: SeededUser, to: SeededUser, afterSigterm: () => boolean): Promise<Sender> {
  const socket = connect(url, { auth: { token: `Bearer ${user.token}`, protocol: SOCKET_PROTOCOL }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const sender: Sender = { socket, acked: [], ackedAfterSigterm: 0, refusedAsRestarting: 0 };
  socket.once('disconnect', (reason) => (sender.disconnectReason = reason));
  await within(30_000, new Promise<void>((resolve) => socket.once('connect', () => resolve())), `user ${user.id} connected`);
  const init = (await socket.timeout(30_000).emitWithAck('init', { id: user.id })) as Ack<unknown>;
  if (!('data' in init)) throw new Error(`init refused: ${JSON.stringify(init)}`);

  const loop = async () => {
    while (socket.connected) {
      const ack = (await socket
        .timeout(30_000)
        .emitWithAck('send', { client_id: randomUUID(), recipient_id: to.id, text: `from ${user.id}` })
        .catch(() => null)) as Ack<ConversationMessage> | null;
      if (ack && 'data' in ack) {
        sender.acked.push(ack.data);
        if (afterSigterm()) sender.ackedAfterSigterm += 1;
      } else if (ack && 'msg' in ack.error && ack.error.msg === RESTARTING_MSG) {
        sender.refusedAsRestarting += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  for (let i = 0; i < IN_FLIGHT_PER_CLIENT; i += 1) void loop();
  return sender;
}

function disconnected(sender: Sender): Promise<void> {
  if (!sender.socket.connected) return Promise.resolve();
  return new Promise((resolve) => sender.socket.once('disconnect', () => resolve()));
}
