// Who may emit what over Socket.IO, in the socket protocol the app speaks: every event against
// every kind of caller that is not a live, active owner, and whose sockets deactivation and logout
// close. The event list is checked against what the server really listens to, so a new event
// without a row here fails this file until it gets one. The callers are in
// authorization-matrix-callers.ts.
import { randomUUID } from 'node:crypto';
import type { Socket as ServerSocket } from 'socket.io';
import { describe, expect, it } from 'vitest';
import { SOCKET_PROTOCOL, type AccountSyncResult, type Ack, type ConversationSummaryPage, type ConversationSyncResult } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { api, signIn } from '../test/helpers';
import { connectSocket, emitWithAck, nextEvent, sendAccepted, type ClientSocket } from '../test/socket-client';
import {
  foreignConversationId,
  foreignMessageId,
  inactiveBearer,
  owned,
  ownedConversationId,
  owner,
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

interface EventRow {
  /** A well-formed payload from the owner (acked with data once initialised). */
  valid: () => unknown;
  /** Someone else's ids or fields in the owner's event, and the refusal it must get. */
  foreign: () => { payload: unknown; error: unknown };
  /** `valid` names the owner's conversation: naming someone else's must be refused exactly like a missing one. */
  byConversation?: true;
}

const NOT_FOUND = { non_field_errors: ['message_id: Message not found.'] };
const CONVERSATION_NOT_FOUND = { non_field_errors: ['conversation_id: Conversation not found.'] };
const fieldError = (pattern: RegExp) => ({ non_field_errors: expect.arrayContaining([expect.stringMatching(pattern)]) });

const EVENTS: Record<string, EventRow> = {
  init: {
    valid: () => ({ id: owner.user.id }),
    foreign: () => ({ payload: { id: peer.user.id }, error: { msg: expect.stringMatching(/own account/) } }),
  },
  // Into a conversation, or to a person (which begins a direct conversation): someone else's upload either way.
  send: {
    valid: () => ({ client_id: randomUUID(), conversation_id: ownedConversationId, text: 'hi' }),
    foreign: () => ({
      payload: { client_id: randomUUID(), recipient_id: peer.user.id, text: '', attachment_id: peerUpload.id },
      error: { non_field_errors: ['attachment_id: No such upload of yours.'] },
    }),
    byConversation: true,
  },
  read: {
    valid: () => ({ conversation_id: ownedConversationId, up_to: 1 }),
    foreign: () => ({ payload: { conversation_id: ownedConversationId, reader_id: third.user.id }, error: fieldError(/^reader_id: /) }),
    byConversation: true,
  },
  follow: {
    valid: () => ({ user_id: peer.user.id, follow: true }),
    foreign: () => ({ payload: { user_id: third.user.id, follow: true, follower_id: peer.user.id }, error: fieldError(/^follower_id: /) }),
  },
  // Reading as someone else: the reader is always the socket's user.
  sync_conversation: {
    valid: () => ({ conversation_id: ownedConversationId, after: 0 }),
    foreign: () => ({ payload: { conversation_id: ownedConversationId, after: 0, user_id: peer.user.id }, error: fieldError(/^user_id: /) }),
    byConversation: true,
  },
  // Always the caller's own account: naming another is refused.
  sync_account: {
    valid: () => ({ cursor: null }),
    foreign: () => ({ payload: { cursor: null, user_id: peer.user.id }, error: fieldError(/^user_id: /) }),
  },
  // Signalling as someone else (in a conversation, or to a person): the sender is always the socket's user.
  typing: {
    valid: () => ({ conversation_id: ownedConversationId, typing: true }),
    foreign: () => ({ payload: { user_id: third.user.id, typing: true, from_id: peer.user.id }, error: fieldError(/^from_id: /) }),
    byConversation: true,
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

/** A socket speaking the app's protocol, not initialised (a handshake that names none is refused). */
const connect = (token?: string) => connectSocket(t.url, token, { protocol: SOCKET_PROTOCOL });

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
    await expect(connect(token())).rejects.toThrow('Unauthorized');
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

    if (row.byConversation) {
      it("refuses someone else's conversation exactly like a missing one", async () => {
        const socket = await tabs.open(owner);
        for (const conversationId of [foreignConversationId, Number.MAX_SAFE_INTEGER]) {
          expect(await emitWithAck(socket, event, { ...(row.valid() as object), conversation_id: conversationId })).toEqual({ error: CONVERSATION_NOT_FOUND });
        }
      });
    }

    it('answers the owner (the row’s payload is well-formed)', async () => {
      const socket = await tabs.open(owner, { init: event !== 'init' });
      expect(await emitWithAck(socket, event, row.valid())).toEqual({ data: expect.anything() });
    });
  });

  it('read and the catch-up reach only the caller’s own conversations', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    const annAway = await emitWithAck<Ack<AccountSyncResult>>(annTab, 'sync_account', {});
    if (!('data' in annAway)) throw new Error(JSON.stringify(annAway));
    const toCat = await sendAccepted(benTab, cat, 'ben to cat');
    await sendAccepted(benTab, ann, 'ben to ann');
    const [annWithBen, catWithBen] = await Promise.all([directConversationId(t.db, ann.user.id, ben.user.id), directConversationId(t.db, cat.user.id, ben.user.id)]);

    // Up to a message of someone else's conversation: none of Ann's, so it reads nothing, and never reaches Cat's.
    expect(await emitWithAck(annTab, 'read', { conversation_id: annWithBen, up_to: toCat.id })).toEqual({ data: { count: 1, unread_count: 1 } });
    expect(await emitWithAck(annTab, 'read', { conversation_id: annWithBen })).toEqual({ data: { count: 0, unread_count: 0 } });
    const catList = await api<ConversationSummaryPage>(t.url, '/c', { token: cat.bearer });
    expect(catList.body.results.map((row) => [row.conversation_id, row.unread_count])).toEqual([[catWithBen, 1]]);

    // Ann's catch-up names her conversation only, and it holds her message only.
    const moved = await emitWithAck<Ack<AccountSyncResult>>(annTab, 'sync_account', { cursor: annAway.data.cursor });
    if (!('data' in moved)) throw new Error(JSON.stringify(moved));
    expect(moved.data.conversations.map((row) => row.conversation_id)).toEqual([annWithBen]);
    const synced = await emitWithAck<Ack<ConversationSyncResult>>(annTab, 'sync_conversation', { conversation_id: annWithBen, after: 0 });
    if (!('data' in synced)) throw new Error(JSON.stringify(synced));
    expect(synced.data.messages.map((message) => message.text)).toEqual(['ben to ann']);
    expect(await emitWithAck(catTab, 'read', { conversation_id: catWithBen })).toEqual({ data: { count: 0, unread_count: 0 } });
  });

  it('typing reaches only its recipient; presence only those the person reached out to, whatever the caller asks', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    // Protocol 2 places typing in a conversation: Ann writes to Ben first.
    await sendAccepted(annTab, ben, 'hi');
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    const heardByCat: unknown[] = [];
    catTab.on('typing', (payload) => heardByCat.push(payload));
    const benHears = nextEvent(benTab, 'typing');
    await emitWithAck(annTab, 'typing', { conversation_id: conversation, typing: true });
    expect(await benHears).toEqual({ conversation_id: conversation, user_id: ann.user.id, typing: true });
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
      connect(erinElsewhere),
    ]);
    const bystander = await tabs.open(bystanderUser);
    const reasons = Promise.all(sockets.map((socket) => nextEvent<string>(socket, 'disconnect')));

    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: erin.bearer })).status).toBe(204);
    expect(await reasons).toEqual(['io server disconnect', 'io server disconnect', 'io server disconnect']);
    expect(bystander.connected).toBe(true);
    await expect(connect(erinElsewhere)).rejects.toThrow('Unauthorized');
  });

  it('logout closes the sockets of that session only', async () => {
    const erin = await signIn(t.url, 'Erin');
    const elsewhere = await secondSession(erin);
    const [loggedOut, stays] = await Promise.all([tabs.open(erin), connect(elsewhere)]);
    const reason = nextEvent<string>(loggedOut, 'disconnect');
    expect((await api(t.url, '/accounts/logout', { method: 'POST', token: erin.bearer })).status).toBe(204);
    expect(await reason).toBe('io server disconnect');
    expect(stays.connected).toBe(true);
    stays.close();
    await expect(connect(erin.bearer)).rejects.toThrow('Unauthorized');
  });
});
