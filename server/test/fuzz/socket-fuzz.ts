import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_PROTOCOL } from '../../../lib/contract';
import type { Rng } from './prng';
import { healthy, pool } from './rest-fuzz';
import { KNOWN_EVENTS, schemaAccepts, socketCase, type SocketCase } from './socket-cases';
import type { SocketIds } from './socket-ids';
import { sentinelCases } from './socket-sentinels';
import { isErrorBody, isRateLimited, type FuzzTally } from './tally';

const ACK_MS = 15_000;
const TIMEOUT = Symbol('no ack');
const BATCH = 200;

export interface SocketFuzzPlan {
  base: string;
  bearer: string;
  ids: SocketIds;
  /** Socket.IO's maxHttpBufferSize: a frame over it closes its connection. */
  maxFrameBytes: number;
  initialised: Socket[];
  /** Connected, never initialised: everything but init must be refused with "Send init…". */
  uninitialised: Socket[];
  counts: { initialised: number; uninitialised: number; flood: number };
  /** Handshake `auth` values that must be refused. */
  badAuth: unknown[];
}

const describeCase = (c: SocketCase) =>
  `${c.event.slice(0, 40)}(${c.style}) [${c.category}] ${JSON.stringify(c.wire)?.slice(0, 160) ?? 'undefined'}`;

/** Emits one case; resolves with the ack (or TIMEOUT) when one is expected, else at once. */
function emitCase(socket: Socket, c: SocketCase, label: string, tally: FuzzTally): Promise<unknown> | null {
  tally.socketEvents.add(label);
  tally.socketStyles.add(c.style);
  if (!c.ack) {
    socket.emit(c.event, ...c.args);
    return null;
  }
  if (!(KNOWN_EVENTS as readonly string[]).includes(c.event)) {
    // Unknown events are ignored: an ack here would mean someone answers them.
    socket.emit(c.event, ...c.args, () => tally.unknownEventAcks++);
    return null;
  }
  return new Promise((resolve) => {
    socket.timeout(ACK_MS).emit(c.event, ...c.args, (error: unknown, response: unknown) => resolve(error ? TIMEOUT : response));
  });
}

function checkAck(c: SocketCase, response: unknown, initialised: boolean, tally: FuzzTally): void {
  const problem = (why: string) => tally.fail(`socket ${describeCase(c)} → ${String(JSON.stringify(response)).slice(0, 200)}: ${why}`);
  if (response === TIMEOUT) return problem(`no ack within ${ACK_MS} ms`);
  if (c.harmless && typeof response === 'object' && response !== null && 'data' in response) return;
  const keys = typeof response === 'object' && response !== null ? Object.keys(response) : [];
  const error = (response as { error?: unknown } | null)?.error;
  if (keys.length !== 1 || keys[0] !== 'error' || !isErrorBody(error)) return problem('not an {error: <error body>} ack');
  if (isRateLimited(error)) return void tally.errorAcks.add('msg: rate limited');
  const kind = 'msg' in error ? 'msg' : 'non_field_errors';
  tally.errorAcks.add(kind);
  if ('msg' in error && /internal server error/i.test(error.msg)) return problem('a server fault, not a refusal');
  if (!initialised && c.event !== 'init') {
    if (!('msg' in error && /init/i.test(error.msg))) problem('expected "Send init before other events."');
  } else if (!schemaAccepts(c.event, c.wire) && kind !== 'non_field_errors') {
    problem('a malformed payload must be refused with non_field_errors');
  }
}

async function runBatches(sockets: Socket[], cases: SocketCase[], label: string | null, initialised: boolean, tally: FuzzTally, base: string) {
  for (let start = 0; start < cases.length; start += BATCH) {
    const batch = cases.slice(start, start + BATCH);
    await Promise.all(
      batch.map(async (c, i) => {
        const pending = emitCase(sockets[i % sockets.length] as Socket, c, label ?? c.category, tally);
        if (pending) checkAck(c, await pending, initialised, tally);
      }),
    );
    if (!(await healthy(base))) tally.crashes++;
  }
}

// Packets a Socket.IO client library never writes: broken JSON, reserved names, unknown types,
// namespaces that do not exist, acks nobody asked for, binary placeholders without attachments.
const RAW_FRAMES = [
  '2["send"', '2[]', '2[null]', '2[{}]', '2[1]', '2[1,{}]', '2["disconnect"]', '2["connect"]', '2["newListener","x"]',
  '2["removeListener","send"]', '2["disconnecting"]', '9', '7', 'x', '', '2/admin,["send",{}]', '0/admin,', '0/admin,{"token":"x"}',
  '3999999999999999["x"]', '35[{"x":1}]', '51-["send",{"_placeholder":true,"num":5}]', '51-["send",{"_placeholder":true,"num":0}]',
  '52-["send",{"_placeholder":true,"num":0}]', `2${'['.repeat(20_000)}`, `2["send",${'{"a":'.repeat(5_000)}`, '4"x"', '1', '0', '0{}',
  '2abc["send"]', '2999999999999999999999["send",{}]', '2-1["send",{}]', '2["__proto__",{"polluted":true}]', '2["constructor"]',
  // Deeper than socket.io-client can encode; the server parses JSON natively.
  `2["send",${'['.repeat(50_000)}${']'.repeat(50_000)}]`, `27["init",${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}]`,
  `2["send",{"text":"${'\\u0000'.repeat(1_000)}"}]`, `2["sync_conversation",{"conversation_id":1,"after":1e999}]`, '2["send",{"recipient_id":-0}]',
];

async function throwaway(base: string, bearer: string): Promise<Socket> {
  const socket = connect(base, { auth: { token: bearer, protocol: SOCKET_PROTOCOL }, reconnection: false, forceNew: true, timeout: 5_000 });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Raw protocol violations and oversized frames, each on a connection of its own (they may be closed). */
async function runProtocolAbuse(plan: SocketFuzzPlan, rng: Rng, tally: FuzzTally): Promise<void> {
  await pool(RAW_FRAMES, 4, async (frame) => {
    const socket = await throwaway(plan.base, plan.bearer);
    tally.socketEvents.add('protocol-violation');
    tally.socketStyles.add('raw-frame');
    socket.io.engine.write(frame);
    await pause(50);
    socket.close();
  });
  for (let i = 0; i < 4; i++) {
    const socket = await throwaway(plan.base, plan.bearer);
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    tally.socketEvents.add('oversized-frame');
    tally.socketStyles.add(i % 2 ? 'binary' : 'no-ack');
    socket.emit('send', i % 2 ? rng.bytes(plan.maxFrameBytes + 1_024) : 'x'.repeat(plan.maxFrameBytes + 1_024));
    // The server closes a connection whose frame is over its limit; it must not take others with it.
    await Promise.race([closed, pause(3_000)]);
    socket.close();
  }
}

/** Handshakes the server must refuse: no socket may connect with them. */
async function runBadHandshakes(plan: SocketFuzzPlan, tally: FuzzTally): Promise<void> {
  await pool(plan.badAuth, 8, async (auth) => {
    tally.socketEvents.add('handshake (refused)');
    const socket = connect(plan.base, { auth: auth as object, reconnection: false, forceNew: true, timeout: 5_000 });
    const outcome = await new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error.message));
    });
    socket.close();
    if (outcome === 'connected') tally.fail(`handshake with auth ${JSON.stringify(auth)?.slice(0, 120)} was accepted`);
  });
}

export async function runSocketFuzz(plan: SocketFuzzPlan, rng: Rng, tally: FuzzTally): Promise<void> {
  const options = { maxHuge: Math.floor(plan.maxFrameBytes / 3), binary: true, maxDepth: 1_000, maxFrame: Math.floor(plan.maxFrameBytes * 0.9) };
  const make = (count: number) => Array.from({ length: count }, () => socketCase(rng, plan.ids, options));

  await runBatches(plan.initialised, sentinelCases(plan.ids), null, true, tally, plan.base);
  await runBatches(plan.initialised, make(plan.counts.initialised), null, true, tally, plan.base);
  await runBatches(plan.uninitialised, make(plan.counts.uninitialised), 'before-init', false, tally, plan.base);

  // A flood: everything emitted at once on one socket, acks awaited only afterwards.
  const flood = make(plan.counts.flood);
  const target = plan.initialised[0] as Socket;
  const pending = flood.map((c) => [c, emitCase(target, c, 'flood', tally)] as const);
  for (const [c, ack] of pending) if (ack) checkAck(c, await ack, true, tally);

  await runProtocolAbuse(plan, rng, tally);
  await runBadHandshakes(plan, tally);
  // Events without an ack are still being handled: give them a moment before anything is compared.
  await pause(500);
  if (!(await healthy(plan.base))) tally.crashes++;
}
