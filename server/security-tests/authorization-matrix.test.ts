// Who may call what: every HTTP route and every socket event against every kind of caller that is
// not a live, active owner. The route and event lists are checked against what the server really
// registers, so a new endpoint or event without a row here fails this file until it gets one.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Socket as ServerSocket } from 'socket.io';
import webPush from 'web-push';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Attachment, ConversationPage, MessagePayload, Page, SyncResult } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { startObservedServer, type ObservedServer } from '../test/observed-server';
import { connectSocket, emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { socketTabs } from '../test/tabs';
import { rawUpload } from '../test/uploads';

let t: ObservedServer;
/** The caller whose own resources the rows address; `peer` and `third` are other people. */
let owner: SignedInUser;
let peer: SignedInUser;
let third: SignedInUser;
/** A session of the owner's that was logged out. */
let revokedBearer: string;
/** Two live sessions of a deactivated account: one for logout (which ends it), one for the rest. */
let inactiveBearer: string;
let inactiveLogoutBearer: string;
/** A live session of another deactivated account, for account deletion (which erases it). */
let inactiveDeleteBearer: string;
let inactive: SignedInUser;
let peerUpload: Attachment;
/** Messages of the owner's conversation (one per change, so no change depends on another's), and one between two other people. */
let owned: { react: number; edit: number; unsend: number; hide: number };
let foreignMessageId: number;
const tabs = socketTabs(() => t);

async function secondSession(user: SignedInUser): Promise<string> {
  const response = await api<{ token: string }>(t.url, '/accounts/authorize', {
    method: 'POST',
    json: { firebase_id: user.account.uid, social_type: 'google', id_token: user.account.idToken },
  });
  if (response.status !== 200) throw new Error(`second session: ${response.status}`);
  return `Bearer ${response.body.token}`;
}

/** Push services the matrix's server may be given subscriptions for: loopback, where nothing answers pushes. */
const PUSH_SERVICE = 'http://127.0.0.1:9';

beforeAll(async () => {
  t = await startObservedServer({
    logLevel: 'warn',
    push: { vapid: { ...webPush.generateVAPIDKeys(), subject: 'mailto:tests@parley.example' }, endpointOrigins: ['http://127.0.0.1'] },
  });
  [owner, peer, third, inactive] = await Promise.all([
    signIn(t.url, 'Owner'),
    signIn(t.url, 'Peer'),
    signIn(t.url, 'Third'),
    signIn(t.url, 'Inactive'),
  ]);
  revokedBearer = await secondSession(owner);
  expect((await api(t.url, '/accounts/logout', { method: 'POST', token: revokedBearer })).status).toBe(204);
  inactiveBearer = inactive.bearer;
  inactiveLogoutBearer = await secondSession(inactive);
  expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: inactiveBearer })).status).toBe(204);
  const deleting = await signIn(t.url, 'Inactive, deleting');
  inactiveDeleteBearer = deleting.bearer;
  expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: inactiveDeleteBearer })).status).toBe(204);
  // A conversation of the owner's, for the rows that act on one (mute, and the changes to its messages).
  const message = async (senderId: number, recipientId: number) =>
    (await insertMessage(t.db, { senderId, recipientId, clientId: randomUUID(), text: 'hello owner' })).message.id;
  owned = {
    react: await message(peer.user.id, owner.user.id),
    edit: await message(owner.user.id, peer.user.id),
    unsend: await message(owner.user.id, peer.user.id),
    hide: await message(peer.user.id, owner.user.id),
  };
  foreignMessageId = await message(peer.user.id, third.user.id);

  const bytes = Buffer.from('peer file');
  const upload = await rawUpload(
    t.url,
    { authorization: peer.bearer, 'x-file-name': 'peer.txt', 'content-type': 'text/plain', 'content-length': bytes.length },
    [bytes],
  );
  peerUpload = JSON.parse(upload.body) as Attachment;
}, 60_000);
afterEach(() => tabs.closeAll());
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

interface HttpCall {
  path: string;
  headers?: Record<string, string>;
  body?: string | Blob;
}

interface RouteRow {
  method: string;
  /** Fastify's route pattern, as registered. */
  url: string;
  /** A well-formed call (a caller with a live active session gets `ok`). */
  call: () => HttpCall;
  ok: number;
  /** What a deactivated account's live session gets (docs/API.md). */
  inactive: { status: number; body?: unknown };
  /** Calls that end the caller's session or account run as a throwaway user. */
  destructive?: boolean;
}

const json = (value: unknown): Pick<HttpCall, 'headers' | 'body'> => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
const DEACTIVATED = { status: 403, body: { msg: 'This account has been deactivated.' } };

const ROUTES: RouteRow[] = [
  // Inactive users still read their account (is_active: false), so the client can sign them out.
  { method: 'GET', url: '/api/accounts/info', call: () => ({ path: '/api/accounts/info' }), ok: 200, inactive: { status: 200, body: expect.objectContaining({ is_active: false }) } },
  { method: 'PATCH', url: '/api/accounts/settings', call: () => ({ path: '/api/accounts/settings', ...json({ language: 'fr' }) }), ok: 200, inactive: DEACTIVATED },
  { method: 'PATCH', url: '/api/accounts/profile', call: () => ({ path: '/api/accounts/profile', ...json({ username: 'Owner' }) }), ok: 200, inactive: DEACTIVATED },
  // Ending a session, or deactivating again, stays possible for a deactivated account (not documented: a no-op for the caller only).
  { method: 'POST', url: '/api/accounts/logout', call: () => ({ path: '/api/accounts/logout' }), ok: 204, inactive: { status: 204 }, destructive: true },
  { method: 'POST', url: '/api/accounts/deactivate', call: () => ({ path: '/api/accounts/deactivate' }), ok: 204, inactive: { status: 204 }, destructive: true },
  { method: 'GET', url: '/api/users/search', call: () => ({ path: '/api/users/search?q=pe' }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/users/:id', call: () => ({ path: `/api/users/${peer.user.id}` }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/users/:id/followers', call: () => ({ path: `/api/users/${peer.user.id}/followers` }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/users/:id/following', call: () => ({ path: `/api/users/${peer.user.id}/following` }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/conversations', call: () => ({ path: '/api/conversations' }), ok: 200, inactive: DEACTIVATED },
  {
    method: 'GET',
    url: '/api/conversations/:userId/messages',
    call: () => ({ path: `/api/conversations/${peer.user.id}/messages` }),
    ok: 200,
    inactive: DEACTIVATED,
  },
  { method: 'GET', url: '/api/messages/search', call: () => ({ path: '/api/messages/search?q=hello' }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/uploads/usage', call: () => ({ path: '/api/uploads/usage' }), ok: 200, inactive: DEACTIVATED },
  {
    method: 'POST',
    url: '/api/uploads',
    call: () => ({ path: '/api/uploads', headers: { 'content-type': 'text/plain', 'x-file-name': 'note.txt' }, body: new Blob(['a note']) }),
    ok: 201,
    inactive: DEACTIVATED,
  },
  { method: 'PUT', url: '/api/users/:id/block', call: () => ({ path: `/api/users/${third.user.id}/block` }), ok: 200, inactive: DEACTIVATED },
  { method: 'DELETE', url: '/api/users/:id/block', call: () => ({ path: `/api/users/${third.user.id}/block` }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/blocks', call: () => ({ path: '/api/blocks' }), ok: 200, inactive: DEACTIVATED },
  {
    method: 'PATCH',
    url: '/api/conversations/:userId',
    call: () => ({ path: `/api/conversations/${peer.user.id}`, ...json({ muted: false }) }),
    ok: 200,
    inactive: DEACTIVATED,
  },
  { method: 'POST', url: '/api/reports', call: () => ({ path: '/api/reports', ...json({ user_id: peer.user.id, reason: 'spam' }) }), ok: 201, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/accounts/export', call: () => ({ path: '/api/accounts/export' }), ok: 200, inactive: DEACTIVATED },
  // A deactivated account may still delete itself: deletion is the stronger wish (docs/API.md).
  { method: 'DELETE', url: '/api/accounts/me', call: () => ({ path: '/api/accounts/me' }), ok: 204, inactive: { status: 204 }, destructive: true },
  { method: 'GET', url: '/api/push/public-key', call: () => ({ path: '/api/push/public-key' }), ok: 200, inactive: DEACTIVATED },
  // A new browser each time (endpoints are unique), on an allowed push service nothing listens on.
  { method: 'POST', url: '/api/push/subscriptions', call: () => ({ path: '/api/push/subscriptions', ...json(pushSubscription()) }), ok: 201, inactive: DEACTIVATED },
  {
    method: 'DELETE',
    url: '/api/push/subscriptions',
    call: () => ({ path: '/api/push/subscriptions', ...json({ endpoint: pushSubscription().endpoint }) }),
    ok: 204,
    inactive: DEACTIVATED,
  },
];

function pushSubscription() {
  const point = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ format: 'jwk' });
  const p256dh = Buffer.concat([Buffer.from([4]), Buffer.from(point.x ?? '', 'base64url'), Buffer.from(point.y ?? '', 'base64url')]);
  return { endpoint: `${PUSH_SERVICE}/push/${randomUUID()}`, keys: { p256dh: p256dh.toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

/** Routes anyone may call: sign-in, liveness, readiness, and downloads whose unguessable id is the capability. */
const PUBLIC_ROUTES = ['POST /api/accounts/authorize', 'GET /api/health', 'GET /api/ready', 'GET /api/uploads/:id/:name'];

async function send(method: string, call: HttpCall, authorization?: string): Promise<{ status: number; body: unknown }> {
  const headers = { ...call.headers, ...(authorization !== undefined && { authorization }) };
  const response = await fetch(`${t.url}${call.path}`, { method, headers, body: call.body });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** Each GET route answers HEAD too (Fastify adds it): the same rules apply to it, without a body. */
const methodsOf = (row: RouteRow) => (row.method === 'GET' ? ['GET', 'HEAD'] : [row.method]);
const withBody = (method: string, body: unknown) => (method === 'HEAD' ? '' : body);

const CREDENTIALS = [
  ['no token', () => undefined],
  ['an unknown token', () => `Bearer ${'A'.repeat(43)}`],
  ['a revoked token', () => revokedBearer],
] as const;

describe('HTTP authorisation matrix', () => {
  it('has a row for every route the server registers, and no row for a route it does not', () => {
    const registered = new Set(t.routes.map(({ method, url }) => `${method} ${url}`));
    // HEAD twins of GET routes are covered by their GET row.
    const own = [...registered].filter((route) => !(route.startsWith('HEAD ') && registered.has(route.replace(/^HEAD /, 'GET '))));
    const rows = new Set([...ROUTES.map(({ method, url }) => `${method} ${url}`), ...PUBLIC_ROUTES]);
    expect(own.filter((route) => !rows.has(route)), 'routes without a row in the authorisation matrix').toEqual([]);
    expect([...rows].filter((route) => !registered.has(route)), 'rows for routes that do not exist').toEqual([]);
  });

  describe.each(ROUTES.flatMap((row) => methodsOf(row).map((method) => [`${method} ${row.url}`, method, row] as const)))(
    '%s',
    (_name, method, row) => {
      it.each(CREDENTIALS)('401s %s', async (_label, credential) => {
        const response = await send(method, row.call(), credential());
        expect(response).toEqual({ status: 401, body: withBody(method, { msg: expect.any(String) }) });
      });

      it(`answers a deactivated account's live session ${row.inactive.status}`, async () => {
        const bearer =
          row.url === '/api/accounts/logout' ? inactiveLogoutBearer : row.url === '/api/accounts/me' ? inactiveDeleteBearer : inactiveBearer;
        const response = await send(method, row.call(), bearer);
        expect(response.status).toBe(row.inactive.status);
        if (row.inactive.body !== undefined) expect(response.body).toEqual(withBody(method, row.inactive.body));
      });

      it(`answers a live session of an active account ${row.ok} (the row's request is well-formed)`, async () => {
        const caller = row.destructive ? await signIn(t.url, 'Throwaway') : owner;
        const response = await send(method, row.call(), caller.bearer);
        expect(response.status).toBe(row.ok);
      });
    },
  );

  it('serves the public routes without a token', async () => {
    expect((await send('GET', { path: '/api/health' })).status).toBe(200);
    expect((await send('GET', { path: '/api/ready' })).status).toBe(200);
    // A bad ID token is a 400 at sign-in, never a 401 (docs/API.md).
    const authorize = await send('POST', { path: '/api/accounts/authorize', ...json({ firebase_id: 'x', social_type: 'google', id_token: 'bad' }) });
    expect(authorize.status).toBe(400);
    expect((await send('GET', { path: peerUpload.url })).status).toBe(200);
    expect((await send('GET', { path: `/api/uploads/${peerUpload.id}/other-name.txt` })).status).toBe(404);
  });

  it('logout ends only the presented session; deactivate only the caller', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const aliceElsewhere = await secondSession(alice);
    expect((await send('POST', { path: '/api/accounts/logout' }, alice.bearer)).status).toBe(204);
    expect((await send('GET', { path: '/api/accounts/info' }, alice.bearer)).status).toBe(401);
    expect((await send('GET', { path: '/api/accounts/info' }, aliceElsewhere)).body).toMatchObject({ id: alice.user.id, is_active: true });

    expect((await send('POST', { path: '/api/accounts/deactivate' }, aliceElsewhere)).status).toBe(204);
    expect((await send('GET', { path: '/api/accounts/info' }, aliceElsewhere)).body).toMatchObject({ is_active: false });
    expect((await send('GET', { path: '/api/accounts/info' }, bob.bearer)).body).toMatchObject({ id: bob.user.id, is_active: true });
    expect((await send('GET', { path: `/api/users/${bob.user.id}` }, owner.bearer)).status).toBe(200);
  });

  it("never takes someone else's upload as the caller's photo, nor a file that is not an image", async () => {
    const bytes = Buffer.from('owner notes');
    const own = await rawUpload(
      t.url,
      { authorization: owner.bearer, 'x-file-name': 'notes.png', 'content-type': 'image/png', 'content-length': bytes.length },
      [bytes],
    );
    const ownText = JSON.parse(own.body) as Attachment;
    const before = (await send('GET', { path: '/api/accounts/info' }, owner.bearer)).body;
    for (const [id, problem] of [
      [peerUpload.id, 'No such upload of yours.'],
      [ownText.id, 'Must be an image (PNG, JPEG, WebP or GIF).'],
    ]) {
      const response = await send('PATCH', { path: '/api/accounts/profile', ...json({ avatar_upload_id: id }) }, owner.bearer);
      expect(response).toEqual({ status: 400, body: { non_field_errors: [`avatar_upload_id: ${problem}`] } });
    }
    expect((await send('GET', { path: '/api/accounts/info' }, owner.bearer)).body).toEqual(before);
  });

  it("never shows someone else's conversation, whatever the id or cursor", async () => {
    const [ownerTab, peerTab] = await Promise.all([tabs.open(owner), tabs.open(peer)]);
    await emitWithAck(peerTab, 'send', { client_id: randomUUID(), recipient_id: third.user.id, text: 'peer to third' });
    const mine = await emitWithAck<Ack<MessagePayload>>(ownerTab, 'send', { client_id: randomUUID(), recipient_id: peer.user.id, text: 'owner to peer' });
    if (!('data' in mine)) throw new Error(JSON.stringify(mine));
    // A cursor just past the newest message ever stored: any thread's rows lie below it.
    const cursor = Buffer.from(JSON.stringify(['m', mine.data.id + 1])).toString('base64url');
    for (const path of [`/api/conversations/${peer.user.id}/messages?cursor=${cursor}`, `/api/conversations/${third.user.id}/messages?cursor=${cursor}`]) {
      const page = await send('GET', { path }, owner.bearer);
      expect(page.status).toBe(200);
      for (const message of (page.body as Page<MessagePayload>).results) {
        expect([message.sender_id, message.recipient_id]).toContain(owner.user.id);
      }
    }
    const list = (await send('GET', { path: '/api/conversations' }, owner.bearer)).body as ConversationPage;
    expect(list.results.map((row) => row.user.id)).toEqual([peer.user.id]);

    // A window around someone else's message, through either person of it, is the unknown id's 404;
    // a newer cursor from the very start still reads only the owner's rows.
    for (const peerId of [peer.user.id, third.user.id]) {
      const around = await send('GET', { path: `/api/conversations/${peerId}/messages?around=${foreignMessageId}` }, owner.bearer);
      expect(around).toEqual({ status: 404, body: { msg: 'Message not found.' } });
      const newer = Buffer.from(JSON.stringify(['n', 1])).toString('base64url');
      const page = await send('GET', { path: `/api/conversations/${peerId}/messages?cursor=${newer}` }, owner.bearer);
      for (const message of (page.body as Page<MessagePayload>).results) {
        expect([message.sender_id, message.recipient_id]).toContain(owner.user.id);
      }
    }
    // Search finds only the owner's messages, whatever the words.
    const found = (await send('GET', { path: '/api/messages/search?q=peer' }, owner.bearer)).body as Page<{ message: MessagePayload }>;
    expect(found.results.map((result) => result.message.text)).toEqual(['owner to peer']);
    for (const result of found.results) expect([result.message.sender_id, result.message.recipient_id]).toContain(owner.user.id);
    // Nor can a reply quote it: the refusal is an unknown id's.
    const reply = await emitWithAck(ownerTab, 'send', { client_id: randomUUID(), recipient_id: peer.user.id, text: 'quoting', reply_to: foreignMessageId });
    expect(reply).toEqual({ error: { non_field_errors: ['reply_to: No such message in this conversation.'] } });
  });
});

// ---------------------------------------------------------------------------------------------
// Socket.IO
// ---------------------------------------------------------------------------------------------

interface EventRow {
  /** A well-formed payload from the owner (acked with data once initialised). */
  valid: () => unknown;
  /** Someone else's ids or fields in the owner's event, and the refusal it must get. */
  foreign: () => { payload: unknown; error: unknown };
}

const NOT_FOUND = { non_field_errors: ['message_id: Message not found.'] };
const fieldError = (pattern: RegExp) => ({ non_field_errors: expect.arrayContaining([expect.stringMatching(pattern)]) });

const EVENTS: Record<string, EventRow> = {
  init: {
    valid: () => ({ id: owner.user.id }),
    foreign: () => ({ payload: { id: peer.user.id }, error: { msg: expect.stringMatching(/own account/) } }),
  },
  send: {
    valid: () => ({ client_id: randomUUID(), recipient_id: peer.user.id, text: 'hi' }),
    foreign: () => ({
      payload: { client_id: randomUUID(), recipient_id: peer.user.id, text: '', attachment_id: peerUpload.id },
      error: { non_field_errors: ['attachment_id: No such upload of yours.'] },
    }),
  },
  read: {
    valid: () => ({ user_id: peer.user.id }),
    foreign: () => ({ payload: { user_id: peer.user.id, reader_id: third.user.id }, error: fieldError(/^reader_id: /) }),
  },
  follow: {
    valid: () => ({ user_id: peer.user.id, follow: true }),
    foreign: () => ({ payload: { user_id: third.user.id, follow: true, follower_id: peer.user.id }, error: fieldError(/^follower_id: /) }),
  },
  sync: {
    valid: () => ({ after: 0 }),
    foreign: () => ({ payload: { after: 0, user_id: peer.user.id }, error: fieldError(/^user_id: /) }),
  },
  // Signalling as someone else: the sender is always the socket's user.
  typing: {
    valid: () => ({ user_id: peer.user.id, typing: true }),
    foreign: () => ({ payload: { user_id: third.user.id, typing: true, from_id: peer.user.id }, error: fieldError(/^from_id: /) }),
  },
  // Subscribing someone else's socket or account to a presence list.
  presence_subscribe: {
    valid: () => ({ user_ids: [peer.user.id] }),
    foreign: () => ({ payload: { user_ids: [third.user.id], viewer_id: peer.user.id }, error: fieldError(/^viewer_id: /) }),
  },
  visibility: {
    valid: () => ({ visible: true }),
    foreign: () => ({ payload: { visible: true, user_id: peer.user.id }, error: fieldError(/^user_id: /) }),
  },
  // Changes to messages: someone else's message is refused exactly like a missing one.
  react: {
    valid: () => ({ message_id: owned.react, emoji: '👍', add: true }),
    foreign: () => ({ payload: { message_id: foreignMessageId, emoji: '👍', add: true }, error: NOT_FOUND }),
  },
  edit: {
    valid: () => ({ message_id: owned.edit, text: 'edited' }),
    foreign: () => ({ payload: { message_id: foreignMessageId, text: 'mine now' }, error: NOT_FOUND }),
  },
  unsend: {
    valid: () => ({ message_id: owned.unsend }),
    foreign: () => ({ payload: { message_id: foreignMessageId }, error: NOT_FOUND }),
  },
  hide: {
    valid: () => ({ message_id: owned.hide }),
    foreign: () => ({ payload: { message_id: foreignMessageId }, error: NOT_FOUND }),
  },
};

/** Events the server listens to on every socket that are Socket.IO's own, not ours. */
const RESERVED_EVENTS = new Set(['disconnect', 'disconnecting', 'error']);

function serverSocketOf(client: ClientSocket): ServerSocket {
  const socket = t.server.io.sockets.sockets.get(client.id ?? '');
  if (!socket) throw new Error('no server socket for this client');
  return socket as unknown as ServerSocket;
}

const HANDSHAKES = [
  ['no token', () => undefined],
  ['an unknown token', () => `Bearer ${'A'.repeat(43)}`],
  ['a revoked token', () => revokedBearer],
  ['a deactivated account’s token', () => inactiveBearer],
] as const;

describe('Socket.IO authorisation matrix', () => {
  it('has a row for every event the server listens to, and no row for an event it does not', async () => {
    const socket = await tabs.open(owner, { init: false });
    const listened = serverSocketOf(socket)
      .eventNames()
      .map(String)
      .filter((name) => !RESERVED_EVENTS.has(name));
    expect(listened.filter((name) => !(name in EVENTS)), 'events without a row in the authorisation matrix').toEqual([]);
    expect(Object.keys(EVENTS).filter((name) => !listened.includes(name)), 'rows for events nobody listens to').toEqual([]);
  });

  it.each(HANDSHAKES)('refuses the handshake with %s', async (_label, token) => {
    await expect(connectSocket(t.url, token())).rejects.toThrow('Unauthorized');
  });

  describe.each(Object.entries(EVENTS))('%s', (event, row) => {
    if (event !== 'init') {
      it('is refused before init', async () => {
        const socket = await tabs.open(owner, { init: false });
        expect(await emitWithAck(socket, event, row.valid())).toEqual({ error: { msg: 'Send init before other events.' } });
      });
    }

    it("refuses someone else's ids or fields", async () => {
      const socket = await tabs.open(owner, { init: event !== 'init' });
      const { payload, error } = row.foreign();
      expect(await emitWithAck(socket, event, payload)).toEqual({ error });
    });

    it('answers the owner (the row’s payload is well-formed)', async () => {
      const socket = await tabs.open(owner, { init: event !== 'init' });
      expect(await emitWithAck(socket, event, row.valid())).toEqual({ data: expect.anything() });
    });
  });

  it('read and sync reach only the caller’s own messages', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    await emitWithAck(benTab, 'send', { client_id: randomUUID(), recipient_id: cat.user.id, text: 'ben to cat' });
    await emitWithAck(benTab, 'send', { client_id: randomUUID(), recipient_id: ann.user.id, text: 'ben to ann' });

    expect(await emitWithAck(annTab, 'read', { user_id: ben.user.id })).toEqual({ data: { count: 0 } });
    const catList = await api<ConversationPage>(t.url, '/conversations', { token: cat.bearer });
    expect(catList.body.results.map((row) => [row.user.id, row.unread_count])).toEqual([[ben.user.id, 1]]);

    const synced = await emitWithAck<Ack<SyncResult>>(annTab, 'sync', { after: 0 });
    if (!('data' in synced)) throw new Error(JSON.stringify(synced));
    expect(synced.data.messages.map((message) => message.text)).toEqual(['ben to ann']);
    expect(await emitWithAck(catTab, 'read', { user_id: ben.user.id })).toEqual({ data: { count: 0 } });
  });

  it('typing reaches only its recipient; presence only those the person reached out to, whatever the caller asks', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    const heardByCat: unknown[] = [];
    catTab.on('typing', (payload) => heardByCat.push(payload));
    const benHears = nextEvent(benTab, 'typing');
    await emitWithAck(annTab, 'typing', { user_id: ben.user.id, typing: true });
    expect(await benHears).toEqual({ user_id: ann.user.id, typing: true });
    expect(heardByCat).toEqual([]);

    // Ben follows Ann: Ann may see Ben's presence; Cat, to whom Ben never reached out, may not.
    await emitWithAck(benTab, 'follow', { user_id: ann.user.id, follow: true });
    expect(await emitWithAck(annTab, 'presence_subscribe', { user_ids: [ben.user.id] })).toEqual({
      data: { presence: [{ user_id: ben.user.id, online: true, last_seen_at: null }] },
    });
    expect(await emitWithAck(catTab, 'presence_subscribe', { user_ids: [ben.user.id, ann.user.id] })).toEqual({ data: { presence: [] } });
  });

  it('deactivation closes every open socket of the account, across its sessions, and no other', async () => {
    const [erin, bystanderUser] = await Promise.all([signIn(t.url, 'Erin'), signIn(t.url, 'Bystander')]);
    const erinElsewhere = await secondSession(erin);
    const sockets = await Promise.all([
      tabs.open(erin),
      tabs.open(erin, { init: false }),
      connectSocket(t.url, erinElsewhere),
    ]);
    const bystander = await tabs.open(bystanderUser);
    const reasons = Promise.all(sockets.map((socket) => nextEvent<string>(socket, 'disconnect')));

    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: erin.bearer })).status).toBe(204);
    expect(await reasons).toEqual(['io server disconnect', 'io server disconnect', 'io server disconnect']);
    expect(bystander.connected).toBe(true);
    await expect(connectSocket(t.url, erinElsewhere)).rejects.toThrow('Unauthorized');
  });

  it('logout closes the sockets of that session only', async () => {
    const erin = await signIn(t.url, 'Erin');
    const elsewhere = await secondSession(erin);
    const [loggedOut, stays] = await Promise.all([tabs.open(erin), connectSocket(t.url, elsewhere)]);
    const reason = nextEvent<string>(loggedOut, 'disconnect');
    expect((await api(t.url, '/accounts/logout', { method: 'POST', token: erin.bearer })).status).toBe(204);
    expect(await reason).toBe('io server disconnect');
    expect(stays.connected).toBe(true);
    stays.close();
    await expect(connectSocket(t.url, erin.bearer)).rejects.toThrow('Unauthorized');
  });
});
