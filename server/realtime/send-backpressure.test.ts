import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMessageWriter, type MessageWriter } from '../db/delivery/message-writer';
import { createAccountCheck } from '../auth/account-check';
import { DEFAULT_SESSION_RULES } from '../db/session-rules';
import { openDatabase, type Database } from '../db/engine/open-database';
import { messages } from '../db/schema';
import { seedUsers, type SeededUser } from '../../testing/seed';
import { connectSocket, emitWithAck, send, type ClientSocket } from '../test/socket-client';
import { RESTARTING_MSG } from './ack';
import { createRateLimiters } from '../security/rate-limit';
import { createLocalSocketCap } from '../security/socket-cap';
import { createLocalFileStorage } from '../storage/file-storage';
import { NO_RATE_LIMITS } from '../test/observed-server';
import { createMemoryVisibility } from '../push/visibility';
import { DEFAULT_EDIT_WINDOW_MS, DEFAULT_UNSEND_WINDOW_MS } from '../config';
import { createRefusalLog } from '../logging/refusal-log';
import { createRealtime, type Realtime } from './create-realtime';

// The realtime layer alone over an in-memory PGlite, with a writer of our own: a tiny queue cap,
// and a database we can hold (a PGlite transaction blocks every other query) so sends stay pending.
let database: Database;
let httpServer: HttpServer;
let realtime: Realtime;
let writer: MessageWriter;
let url: string;
let alice: SeededUser;
let bob: SeededUser;
const sockets: ClientSocket[] = [];

beforeEach(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  [alice, bob] = (await seedUsers(database.db, { count: 2 })) as [SeededUser, SeededUser];
  httpServer = createServer();
  writer = createMessageWriter(database.db, { maxPending: 1 });
  const log = Fastify({ logger: false }).log;
  realtime = createRealtime(httpServer, {
    db: database.db,
    log,
    refusals: createRefusalLog(log),
    limiters: createRateLimiters(NO_RATE_LIMITS),
    overloaded: () => false,
    socketCap: createLocalSocketCap({ cap: 20 }),
    allowedOrigins: null,
    messageWriter: writer,
    windows: { editWindowMs: DEFAULT_EDIT_WINDOW_MS, unsendWindowMs: DEFAULT_UNSEND_WINDOW_MS },
    // Nothing is unsent here: a folder that is never written.
    storage: createLocalFileStorage(path.join(tmpdir(), 'parley-backpressure-unused')),
    // Seeded accounts, in good standing with Firebase.
    sessionAuth: {
      rules: DEFAULT_SESSION_RULES,
      accountCheck: createAccountCheck({
        db: database.db,
        verifier: { accountStatus: () => Promise.resolve('active') },
        intervalMs: DEFAULT_SESSION_RULES.checkIntervalMs,
        log,
        disconnectSession: (sessionId) => realtime.disconnectSession(sessionId),
      }),
    },
    visibility: createMemoryVisibility(),
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await realtime.close();
  await database.close();
});

async function openTab(user: SeededUser): Promise<ClientSocket> {
  const socket = await connectSocket(url, `Bearer ${user.token}`);
  sockets.push(socket);
  await emitWithAck(socket, 'init', { id: user.id });
  return socket;
}

/** Holds the database until release(): the writer's next transaction waits behind this one. */
function holdDatabase() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = database.db.transaction(() => released);
  return { release: async () => (release(), await held) };
}

describe('send back-pressure', () => {
  it('answers a send beyond the cap at once with a `msg` error (retried by the outbox), and stores the ones it took', async () => {
    const tab = await openTab(alice);
    const hold = holdDatabase();
    const first = send(tab, bob, 'taken');
    await expect.poll(() => writer.pending).toBe(1);

    expect(await send(tab, bob, 'turned away')).toEqual({ error: { msg: 'Too many messages right now, try again shortly.' } });
    await hold.release();
    expect(await first).toEqual({ data: expect.objectContaining({ text: 'taken', seq: 1 }) });
    expect((await database.db.select().from(messages)).map((m) => m.text)).toEqual(['taken']);
    // Room again once the queue has drained.
    expect(await send(tab, bob, 'later')).toEqual({ data: expect.objectContaining({ text: 'later', seq: 2 }) });
  });
});

describe('realtime close', () => {
  it('commits and acks the sends it took before Socket.IO closes, and answers new ones with a `msg` error', async () => {
    const tab = await openTab(alice);
    const hold = holdDatabase();
    const taken = send(tab, bob, 'taken before close');
    await expect.poll(() => writer.pending).toBe(1);

    const closed = realtime.close();
    expect(await send(tab, bob, 'sent while closing')).toEqual({ error: { msg: RESTARTING_MSG } });
    await hold.release();
    expect(await taken).toEqual({ data: expect.objectContaining({ text: 'taken before close' }) });
    await closed;
    expect(await database.db.select({ text: messages.text }).from(messages).where(eq(messages.senderId, alice.id))).toEqual([
      { text: 'taken before close' },
    ]);
  });
});
