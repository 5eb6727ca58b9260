// Who may call what over HTTP: every route against every kind of caller that is not a live, active
// owner. The route list is checked against what the server really registers, so a new endpoint
// without a row here fails this file until it gets one. The callers are in authorization-matrix-callers.ts.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, Attachment, ConversationMessage, ConversationSummaryPage, ConversationThreadPage, MessageSearchResult, Page } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { signIn, type SignedInUser } from '../test/helpers';
import { emitWithAck, sendAccepted } from '../test/socket-client';
import { rawUpload } from '../test/uploads';
import {
  foreignConversationId,
  foreignMessageId,
  inactiveBearer,
  inactiveDeleteBearer,
  inactiveLogoutBearer,
  ownedConversationId,
  owner,
  ownerUpload,
  peer,
  peerUpload,
  registerMatrixHooks,
  revokedBearer,
  secondSession,
  t,
  tabs,
  third,
} from './authorization-matrix-callers';

registerMatrixHooks();

/** Push services the matrix's server may be given subscriptions for: loopback, where nothing answers pushes. */
const PUSH_SERVICE = 'http://127.0.0.1:9';

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
  { method: 'GET', url: '/api/c', call: () => ({ path: '/api/c' }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/messages/search', call: () => ({ path: '/api/messages/search?q=hello' }), ok: 200, inactive: DEACTIVATED },
  { method: 'GET', url: '/api/uploads/usage', call: () => ({ path: '/api/uploads/usage' }), ok: 200, inactive: DEACTIVATED },
  {
    method: 'POST',
    url: '/api/uploads',
    call: () => ({ path: '/api/uploads', headers: { 'content-type': 'text/plain', 'x-file-name': 'note.txt' }, body: new Blob(['a note']) }),
    ok: 201,
    inactive: DEACTIVATED,
  },
  { method: 'DELETE', url: '/api/uploads/:id', call: () => ({ path: `/api/uploads/${ownerUpload.id}` }), ok: 204, inactive: DEACTIVATED },
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
  {
    method: 'GET',
    url: '/api/c/:conversationId/messages',
    call: () => ({ path: `/api/c/${ownedConversationId}/messages` }),
    ok: 200,
    inactive: DEACTIVATED,
  },
  {
    method: 'PATCH',
    url: '/api/c/:conversationId',
    call: () => ({ path: `/api/c/${ownedConversationId}`, ...json({ muted: false }) }),
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

  it("never deletes someone else's upload: 404, as for an unknown id, and it is still served", async () => {
    expect(await send('DELETE', { path: `/api/uploads/${peerUpload.id}` }, owner.bearer)).toEqual({ status: 404, body: { msg: 'Upload not found.' } });
    expect((await send('GET', { path: peerUpload.url })).status).toBe(200);
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
    const mine = await emitWithAck<Ack<ConversationMessage>>(ownerTab, 'send', { client_id: randomUUID(), recipient_id: peer.user.id, text: 'owner to peer' });
    if (!('data' in mine)) throw new Error(JSON.stringify(mine));
    // Cursors past every seq and from the very start read only the owner's conversation; with
    // someone else's, they are its 404.
    for (const cursor of [['o', Number.MAX_SAFE_INTEGER], ['w', 1]].map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'))) {
      const page = await send('GET', { path: `/api/c/${ownedConversationId}/messages?cursor=${cursor}` }, owner.bearer);
      expect(page.status).toBe(200);
      const { results } = page.body as ConversationThreadPage;
      expect(results.map((message) => message.text)).toContain('owner to peer');
      for (const message of results) expect(message.conversation_id).toBe(ownedConversationId);
      const foreign = await send('GET', { path: `/api/c/${foreignConversationId}/messages?cursor=${cursor}` }, owner.bearer);
      expect(foreign).toEqual({ status: 404, body: { msg: 'Conversation not found.' } });
    }
    const list = (await send('GET', { path: '/api/c' }, owner.bearer)).body as ConversationSummaryPage;
    expect(list.results.map((row) => [row.conversation_id, row.user?.id])).toEqual([[ownedConversationId, peer.user.id]]);
    // A forged list cursor past every message still lists only the owner's conversations.
    const byConversation = (await send('GET', { path: `/api/c?cursor=${Buffer.from(JSON.stringify(['c', mine.data.id + 1])).toString('base64url')}` }, owner.bearer))
      .body as ConversationSummaryPage;
    expect(byConversation.results.map((row) => row.conversation_id)).toEqual([ownedConversationId]);
    // Search finds only the owner's messages, whatever the words.
    const found = (await send('GET', { path: '/api/messages/search?q=peer' }, owner.bearer)).body as Page<MessageSearchResult>;
    expect(found.results.map((result) => result.message.text)).toEqual(['owner to peer']);
    for (const result of found.results) expect([result.conversation_id, result.message.conversation_id]).toEqual([ownedConversationId, ownedConversationId]);
    // Nor can a reply quote it: the refusal is an unknown id's.
    const reply = await emitWithAck(ownerTab, 'send', { client_id: randomUUID(), recipient_id: peer.user.id, text: 'quoting', reply_to: foreignMessageId });
    expect(reply).toEqual({ error: { non_field_errors: ['reply_to: No such message in this conversation.'] } });
  });

  it('a conversation by id is the caller’s own or not found: someone else’s is answered like a missing one', async () => {
    const muted = json({ muted: true });
    for (const id of [foreignConversationId, 9_000_000_000]) {
      expect(await send('PATCH', { path: `/api/c/${id}`, ...muted }, owner.bearer)).toEqual({ status: 404, body: { msg: 'Conversation not found.' } });
    }
    expect((await send('PATCH', { path: `/api/c/${foreignConversationId}`, ...muted }, peer.bearer)).status).toBe(200);
    for (const path of [`/api/c/${foreignConversationId}/messages`, `/api/c/${foreignConversationId}/messages?around=${foreignMessageId}`]) {
      expect(await send('GET', { path }, owner.bearer)).toEqual({ status: 404, body: { msg: 'Conversation not found.' } });
    }
    // A cursor the server did not give, naming seqs of the whole conversation, still reads only the caller's own.
    const forged = Buffer.from(JSON.stringify(['w', 1])).toString('base64url');
    const page = (await send('GET', { path: `/api/c/${ownedConversationId}/messages?cursor=${forged}` }, owner.bearer)).body as { results: { conversation_id: number }[] };
    for (const message of page.results) expect(message.conversation_id).toBe(ownedConversationId);
    expect(await send('GET', { path: `/api/c/${ownedConversationId}/messages?around=${foreignMessageId}` }, owner.bearer)).toEqual({ status: 404, body: { msg: 'Message not found.' } });
    expect(await send('PATCH', { path: `/api/c/${ownedConversationId}`, ...muted }, owner.bearer)).toEqual({ status: 200, body: { conversation_id: ownedConversationId, muted: true } });
    expect(await send('PATCH', { path: `/api/c/${ownedConversationId}`, ...json({ muted: false }) }, owner.bearer)).toMatchObject({ status: 200 });
  });

  it('a conversation stays its members’ alone when the other person deletes their account, deactivates it or is blocked', async () => {
    const [ann, gone, away, blocked] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Gone'), signIn(t.url, 'Away'), signIn(t.url, 'Blocked')]);
    const [annTab, goneTab, awayTab, blockedTab] = await Promise.all([tabs.open(ann), tabs.open(gone), tabs.open(away), tabs.open(blocked)]);
    for (const tab of [goneTab, awayTab, blockedTab]) await sendAccepted(tab, ann, 'hello ann');
    const withAnn = (other: SignedInUser) => directConversationId(t.db, ann.user.id, other.user.id);
    const [withGone, withAway, withBlocked] = await Promise.all([withAnn(gone), withAnn(away), withAnn(blocked)]);
    // Each of Ann and Blocked reads what the other sent, so each has a receipt to show the other.
    const read = (tab: typeof annTab) => emitWithAck(tab, 'read', { conversation_id: withBlocked });
    expect(await read(annTab)).toMatchObject({ data: { count: expect.any(Number) } });
    await sendAccepted(annTab, blocked, 'hello back');
    expect(await read(blockedTab)).toMatchObject({ data: { count: expect.any(Number) } });
    const thread = (caller: SignedInUser, id: number) => send('GET', { path: `/api/c/${id}/messages` }, caller.bearer);
    expect((await thread(ann, withBlocked)).body).toMatchObject({ seen: [{ user_id: blocked.user.id }] });
    expect((await thread(blocked, withBlocked)).body).toMatchObject({ seen: [{ user_id: ann.user.id }] });

    expect((await send('DELETE', { path: '/api/accounts/me' }, gone.bearer)).status).toBe(204);
    expect((await send('POST', { path: '/api/accounts/deactivate' }, away.bearer)).status).toBe(204);
    expect((await send('PUT', { path: `/api/users/${blocked.user.id}/block` }, ann.bearer)).status).toBe(200);
    // A deleted account's messages stay with the person who had the conversation; a deactivated
    // account is invisible, its conversation not found, as its profile is; a block hides the
    // receipts, not the thread, on both sides.
    expect(await thread(ann, withGone)).toMatchObject({ status: 200, body: { results: [{ sender_id: gone.user.id, text: 'hello ann' }] } });
    expect(await thread(ann, withAway)).toEqual({ status: 404, body: { msg: 'Conversation not found.' } });
    expect(await emitWithAck(annTab, 'sync_conversation', { conversation_id: withAway, after: 0 })).toEqual({
      error: { non_field_errors: ['conversation_id: Conversation not found.'] },
    });
    for (const caller of [ann, blocked]) {
      expect(await thread(caller, withBlocked)).toMatchObject({ status: 200, body: { results: [{ text: 'hello back' }, { text: 'hello ann' }], seen: [] } });
    }
    // The list keeps the deleted account's row, as deleted, and leaves out the deactivated and the blocked.
    const list = (await send('GET', { path: '/api/c' }, ann.bearer)).body as ConversationSummaryPage;
    expect(list.results).toEqual([expect.objectContaining({ conversation_id: withGone, user: expect.objectContaining({ id: gone.user.id, deleted: true }) })]);
    // None of them becomes anyone else's.
    for (const id of [withGone, withAway, withBlocked]) {
      expect(await thread(owner, id)).toEqual({ status: 404, body: { msg: 'Conversation not found.' } });
    }
  });
});
