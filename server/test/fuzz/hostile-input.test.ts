// Hostile input: thousands of malformed REST requests and socket events (in the socket protocol the
// app speaks) against a real server. The server must answer every one with a 4xx / an error ack in
// the error shapes of docs/API.md, keep every other connection up, log no stack for a client's
// fault, and store nothing. Seeded: the seed is printed, and FUZZ_SEED=<seed> replays a run exactly.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, SOCKET_PROTOCOL, type Ack, type Attachment, type ConversationMessage } from '../../../lib/contract';
import { directConversationId, insertMessage } from '../../../testing/database';
import { snapshotDatabase, type DbSnapshot } from '../db-snapshot';
import { api, signIn, type SignedInUser } from '../helpers';
import { NO_RATE_LIMITS, startObservedServer, type ObservedServer } from '../observed-server';
import { emitWithAck, nextEvent } from '../socket-client';
import { socketTabs } from '../tabs';
import { filesIn, rawUpload } from '../uploads';
import { Rng, fuzzSeed } from './prng';
import { healthy, runRestFuzz } from './rest-fuzz';
import type { RestIds } from './rest-case-shape';
import type { SocketIds } from './socket-ids';
import { runSocketFuzz } from './socket-fuzz';
import { FuzzTally } from './tally';

const seed = fuzzSeed();
const rng = new Rng(seed);
const tally = new FuzzTally();

const REST_COUNTS = {
  auth: 220, 'bad-id': 200, 'path-trick': 200, 'bad-query': 180, 'bad-cursor': 220, 'bad-json': 160,
  'content-type': 120, 'bad-body': 200, oversized: 24, method: 220, 'upload-post': 110, 'upload-get': 110,
  'upload-range': 60, 'upload-delete': 60, safety: 200, profile: 160, 'bad-conversation': 80,
};
const SOCKET_COUNTS = { initialised: 7_000, uninitialised: 1_000, flood: 2_500 };
const MIN_SOCKET_EVENTS = 10_000;

let t: ObservedServer;
let fuzzer: SignedInUser;
let peer: SignedInUser;
let gone: SignedInUser;
let revokedBearer: string;
let peerUpload: Attachment;
let ownMessageId: number;
/** The fuzzer's received message, and one between two other people. */
let receivedMessageId: number;
let foreignMessageId: number;
let before: DbSnapshot;
let filesBefore: string[];
const tabs = socketTabs(() => t);
/** Exceptions nobody caught: in production each one would have ended the server process. */
const crashes: string[] = [];
const onCrash = (error: unknown) => {
  tally.crashes++;
  crashes.push(String(error instanceof Error ? error.stack : error).split('\n').slice(0, 3).join(' ← '));
};
const watched: { name: string; socket: Socket; heard: string[] }[] = [];

beforeAll(async () => {
  console.log(`hostile-input fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // Rate limits off: the fuzzer is meant to reach validation, not the limiter (a 429 still passes).
  t = await startObservedServer({ rateLimits: NO_RATE_LIMITS });
  [fuzzer, peer, gone] = await Promise.all([signIn(t.url, 'Fuzzer'), signIn(t.url, 'Peer'), signIn(t.url, 'Gone')]);

  // A second session of the fuzzer's, logged out: a revoked token.
  const second = await api<{ token: string }>(t.url, '/accounts/authorize', {
    method: 'POST',
    json: { firebase_id: fuzzer.account.uid, social_type: 'google', id_token: fuzzer.account.idToken },
  });
  revokedBearer = `Bearer ${second.body.token}`;
  expect((await api(t.url, '/accounts/logout', { method: 'POST', token: revokedBearer })).status).toBe(204);
  // A message between two other people (before one of them goes): no change of the fuzzer's may reach it.
  foreignMessageId = (await insertMessage(t.db, { senderId: peer.user.id, recipientId: gone.user.id, clientId: randomUUID(), text: 'not yours' })).message.id;
  // A deactivated account whose session is still stored.
  expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: gone.bearer })).status).toBe(204);

  const notes = Buffer.from('the peer’s notes\n');
  const upload = await rawUpload(
    t.url,
    { authorization: peer.bearer, 'x-file-name': 'peer-notes.txt', 'content-type': 'text/plain', 'content-length': notes.length },
    [notes],
  );
  peerUpload = JSON.parse(upload.body) as Attachment;

  // Real rows to protect: a conversation (with one unread message for the fuzzer) and a follow.
  const [fuzzerTab, peerTab] = await Promise.all([tabs.open(fuzzer), tabs.open(peer)]);
  const own = await emitWithAck<Ack<ConversationMessage>>(fuzzerTab, 'send', { client_id: randomUUID(), recipient_id: peer.user.id, text: 'hello' });
  if (!('data' in own)) throw new Error(JSON.stringify(own));
  ownMessageId = own.data.id;
  const received = await emitWithAck<Ack<ConversationMessage>>(peerTab, 'send', {
    client_id: randomUUID(),
    conversation_id: own.data.conversation_id,
    text: 'hi',
    attachment_id: peerUpload.id,
  });
  if (!('data' in received)) throw new Error(JSON.stringify(received));
  receivedMessageId = received.data.id;

  await emitWithAck(fuzzerTab, 'follow', { user_id: peer.user.id, follow: true });
  tabs.closeAll();

  before = await snapshotDatabase(t.db);
  filesBefore = await filesIn(t.uploadsDir);
}, 60_000);

afterAll(async () => {
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  const levels = new Map<number, number>();
  for (const line of t?.logs ?? []) levels.set(line.level, (levels.get(line.level) ?? 0) + 1);
  console.log(`${tally.summary(seed)}\n  server log lines by level: ${JSON.stringify(Object.fromEntries(levels))}`);
  // Every failure, not just the first ones an assertion shows: FUZZ_FAILURES_FILE=<path>.
  if (process.env.FUZZ_FAILURES_FILE) writeFileSync(process.env.FUZZ_FAILURES_FILE, tally.failures.join('\n'));
  tabs.closeAll();
  for (const { socket } of watched) socket.close();
  await t?.close();
});

const missingId = 2_000_000_000;

describe('hostile input', () => {
  it('answers every malformed REST request with a 4xx in an error shape', { timeout: 120_000 }, async () => {
    const ids: RestIds = {
      selfId: fuzzer.user.id,
      peerId: peer.user.id,
      inactiveId: gone.user.id,
      missingId,
      bearer: fuzzer.bearer,
      revokedBearer,
      inactiveBearer: gone.bearer,
      peerUpload: { id: peerUpload.id, name: encodeURIComponent(peerUpload.name) },
      ownMessageId,
      missingMessageId: 9_000_000_000,
      conversationId: await directConversationId(t.db, fuzzer.user.id, peer.user.id),
      foreignConversationId: await directConversationId(t.db, peer.user.id, gone.user.id),
      account: { uid: fuzzer.account.uid, idToken: fuzzer.account.idToken, email: fuzzer.user.email ?? '' },
      maxJsonBody: t.server.app.initialConfig.bodyLimit ?? 1_048_576,
      maxUploadBytes: MAX_UPLOAD_BYTES,
    };
    const { wireShapeGaps } = await runRestFuzz(t.url, ids, rng, tally, REST_COUNTS);
    if (wireShapeGaps.length > 0) {
      console.log(`wire-level refusals answered outside the error shapes (Node/Fastify defaults):\n  ${wireShapeGaps.join('\n  ')}`);
    }
    expect.soft(tally.failures.slice(0, 40), `seed ${seed}`).toEqual([]);
    expect.soft(crashes.slice(0, 5), `seed ${seed}: uncaught exceptions`).toEqual([]);
    expect.soft(tally.crashes).toBe(0);
  });

  it('answers every malformed socket event with an error ack, ignores unknown ones, and keeps every socket up', { timeout: 180_000 }, async () => {
    const ids: SocketIds = {
      selfId: fuzzer.user.id,
      peerId: peer.user.id,
      inactiveId: gone.user.id,
      missingId,
      foreignUploadId: peerUpload.id,
      activeIds: new Set([fuzzer.user.id, peer.user.id]),
      conversationMessageIds: new Set([ownMessageId, receivedMessageId]),
      foreignMessageId,
      conversationIds: new Set([await directConversationId(t.db, fuzzer.user.id, peer.user.id)]),
      foreignConversationId: await directConversationId(t.db, peer.user.id, gone.user.id),
    };
    const open = async (name: string, user: SignedInUser, init: boolean) => {
      const socket = (await tabs.open(user, { init })) as unknown as Socket;
      const heard: string[] = [];
      socket.onAny((event: string) => heard.push(event));
      watched.push({ name, socket, heard });
      return socket;
    };
    const initialised = await Promise.all([0, 1, 2, 3].map((i) => open(`fuzzer tab ${i}`, fuzzer, true)));
    const uninitialised = await Promise.all([0, 1].map((i) => open(`fuzzer tab ${i} (no init)`, fuzzer, false)));
    await open('peer tab', peer, true);
    const failuresBefore = tally.failures.length;

    await runSocketFuzz(
      {
        base: t.url,
        bearer: fuzzer.bearer,
        ids,
        maxFrameBytes: t.server.io.engine.opts.maxHttpBufferSize ?? 1e6,
        initialised,
        uninitialised,
        counts: SOCKET_COUNTS,
        badAuth: badHandshakeAuth(),
      },
      rng,
      tally,
    );

    const sent = tally.socketEvents.total - tally.socketEvents.get('handshake (refused)');
    expect(sent).toBeGreaterThanOrEqual(MIN_SOCKET_EVENTS);
    expect.soft(tally.failures.slice(failuresBefore, failuresBefore + 40), `seed ${seed}`).toEqual([]);
    expect.soft(tally.unknownEventAcks).toBe(0);
    expect.soft(crashes.slice(0, 5), `seed ${seed}: uncaught exceptions`).toEqual([]);
    expect.soft(tally.crashes).toBe(0);
    // Nothing was disconnected, and nothing was broadcast: no event of the fuzz was acted on.
    expect.soft(watched.filter(({ socket }) => !socket.connected).map(({ name }) => name)).toEqual([]);
    expect.soft(watched.filter(({ heard }) => heard.length > 0).map(({ name, heard }) => `${name}: ${heard.join(', ')}`)).toEqual([]);
  });

  it('stays up, stores nothing, logs no stack for client faults, and still serves a real send', { timeout: 60_000 }, async () => {
    // Soft: every one of these is reported, not just the first that fails.
    expect.soft(await healthy(t.url)).toBe(true);
    expect.soft(await snapshotDatabase(t.db)).toEqual(before);
    expect.soft(await filesIn(t.uploadsDir)).toEqual(filesBefore);
    // Own __proto__ keys in JSON never reached Object.prototype (the server runs in this process).
    expect.soft(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect.soft(({} as Record<string, unknown>).isAdmin).toBeUndefined();

    const serverFaults = t.logs.filter((line) => line.level >= 50 || line.err?.stack !== undefined);
    expect.soft(serverFaults.slice(0, 5).map((line) => `${line.msg}: ${line.err?.message ?? ''}`), 'stacks logged').toEqual([]);
    const secrets = [fuzzer.token, peer.token, gone.token, revokedBearer.slice(7), fuzzer.account.idToken];
    const leaking = t.logs.filter((line) => secrets.some((secret) => JSON.stringify(line).includes(secret)));
    expect.soft(leaking.slice(0, 3), 'credentials logged').toEqual([]);

    // A well-formed send between two people the fuzz never touched still works end to end.
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const delivered = nextEvent<ConversationMessage>(benTab, 'message');
    const ack = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'still here?' });
    expect(ack).toMatchObject({ data: { conversation_id: expect.any(Number), sender_id: ann.user.id, text: 'still here?' } });
    expect(await delivered).toEqual('data' in ack && ack.data);
  });
});

/**
 * Handshake `auth` objects without a live session of an active user (each naming the app's
 * protocol, so the session is what refuses it), or with one but a protocol not served.
 */
function badHandshakeAuth(): unknown[] {
  const token = fuzzer.token;
  const sessions: Record<string, unknown>[] = [
    {}, { token: null }, { token: 0 }, { token: true }, { token: [] }, { token: [fuzzer.bearer] }, { token: {} },
    { token: { toString: fuzzer.bearer } }, { token: '' }, { token: 'Bearer' }, { token: 'Bearer ' }, { token: revokedBearer },
    { token: revokedBearer.slice(7) }, { token: gone.bearer }, { token: gone.token }, { token: `${token}x` }, { token: `Bearer ${token} x` },
    { token: 'x'.repeat(600) }, { token: 'x'.repeat(20_000) }, { token: '\u0000' }, { token: `${token}\u0000` }, { Token: fuzzer.bearer },
    { TOKEN: fuzzer.bearer }, { bearer: token }, { authorization: fuzzer.bearer }, { token: `Basic ${token}` },
    JSON.parse(`{"__proto__":{"token":"${fuzzer.bearer}"}}`), JSON.parse(`{"constructor":{"prototype":{"token":"${fuzzer.bearer}"}}}`),
  ];
  for (let i = 0; i < 70; i++) sessions.push({ token: `Bearer ${rng.chars(rng.int(1, 80), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')}` });
  return [
    // A spread keeps an own `__proto__` key an own key: that one still arrives as written.
    ...sessions.map((auth) => ({ ...auth, protocol: SOCKET_PROTOCOL })),
    // A live session, but a socket protocol this server does not serve.
    ...[3, 0, -1, 1.5, 1e300, '1', '', null, true, [1], {}, { valueOf: 1 }].map((protocol) => ({ token: fuzzer.bearer, protocol })),
  ];
}
