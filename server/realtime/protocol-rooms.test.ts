// Socket protocol 2's rooms and pushes beside protocol 1's (docs/design/conversations.md 4.3), on a
// server that serves both: each socket joins its protocol's messaging room at init and gets each
// push in its protocol's shape; what both protocols share reaches every socket of the account once.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AccountItem, AccountSyncResult, Ack, ChangeResult2, ConversationChange, ConversationMessage, ConversationSyncResult, SeenPayload } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { api, signIn, startTestServer } from '../test/helpers';
import type { SocketNotifier } from './socket-reach';
import { emitWithAck, sendAccepted, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }), { protocol: 1 });

/** A round trip on each socket: every push emitted before it has arrived. */
const settled = (...sockets: ClientSocket[]) => Promise.all(sockets.map((socket) => emitWithAck(socket, 'sync_account', {})));

/** Every payload of a protocol 2 event this socket receives (the test client is typed by protocol 1's events). */
function recordProtocol2<T>(socket: ClientSocket, event: 'account_item' | 'seen' | 'message_change'): T[] {
  const seen: T[] = [];
  (socket as unknown as { on: (event: string, listener: (payload: T) => void) => void }).on(event, (payload) => seen.push(payload));
  return seen;
}

const roomOf = async (room: string) => (await t.server.io.in(room).fetchSockets()).map((socket) => socket.id).sort();

describe('protocol rooms', () => {
  it('init joins the room of the protocol the handshake asked for, and only that one', async () => {
    const ann = await signIn(t.url, 'Ann');
    const [one, unnamed, two] = await Promise.all([tabs.open(ann, { protocol: 1 }), tabs.open(ann, { protocol: null }), tabs.open(ann, { protocol: 2 })]);
    expect(await roomOf(`user:${ann.user.id}`)).toEqual([one.id, unnamed.id].sort());
    expect(await roomOf(`user2:${ann.user.id}`)).toEqual([two.id]);
  });

  it('a protocol 2 socket is refused every event before its init, as a protocol 1 socket is', async () => {
    const ann = await signIn(t.url, 'Ann');
    const socket = await tabs.open(ann, { protocol: 2, init: false });
    expect(await emitWithAck(socket, 'sync_account', {})).toEqual({ error: { msg: 'Send init before other events.' } });
    await emitWithAck(socket, 'init', { id: ann.user.id });
    expect(await emitWithAck(socket, 'sync_account', {})).toMatchObject({ data: { has_more: false } });
  });

  it('a message reaches each protocol’s tabs in its shape: protocol 2’s is what sync_conversation reads', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annOne, annTwo, annSender] = await Promise.all([tabs.open(ann, { protocol: 1 }), tabs.open(ann, { protocol: 2 }), tabs.open(ann, { protocol: 2 })]);
    const [benOne, benTwo] = await Promise.all([tabs.open(ben, { protocol: 1 }), tabs.open(ben, { protocol: 2 })]);
    const received = { benOne: record(benOne, 'message'), benTwo: record(benTwo, 'message') };
    const sent = { annOne: record(annOne, 'message_sent'), annTwo: record(annTwo, 'message_sent'), annSender: record(annSender, 'message_sent') };
    const annMessages = [record(annOne, 'message'), record(annTwo, 'message')];

    await sendAccepted(annSender, ben, 'first');
    const payload = { client_id: randomUUID(), recipient_id: ben.user.id, text: 'second' };
    const acked = await emitWithAck<Ack<ConversationMessage>>(annSender, 'send', payload);
    const message = await sendAccepted(annOne, ben, 'third');
    await settled(annOne, annTwo, annSender, benOne, benTwo);

    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    const read = await emitWithAck<Ack<ConversationSyncResult>>(benTwo, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in read)) throw new Error(JSON.stringify(read));
    // Protocol 2: the copy every member gets, by the conversation's seqs, nothing of a reader's own.
    expect(received.benTwo).toEqual(read.data.messages);
    expect(received.benTwo.map((pushed) => [pushed.seq, pushed.text])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ]);
    expect(received.benTwo[1]).not.toHaveProperty('recipient_id');
    // A protocol 2 sender's ack is its message's place in that stream, and a retry's the same.
    expect(acked).toEqual({ data: read.data.messages[1] });
    expect(await emitWithAck(annSender, 'send', payload)).toEqual(acked);
    // The sender's other tabs, each in its shape; the sending tab has its ack instead.
    expect(sent.annTwo).toEqual([read.data.messages[0], read.data.messages[1], read.data.messages[2]]);
    expect(sent.annSender).toEqual([read.data.messages[2]]);
    // Protocol 1: as before, by each account's own seq.
    expect(received.benOne.map((pushed) => pushed.text)).toEqual(['first', 'second', 'third']);
    expect(received.benOne[2]).toMatchObject({ id: message.id, recipient_id: ben.user.id, read_at: null });
    expect(sent.annOne.map((pushed) => [pushed.text, pushed.seq])).toEqual([
      ['first', message.seq - 2],
      ['second', message.seq - 1],
    ]);
    expect(annMessages.flat()).toEqual([]);
  });

  it('what both protocols share reaches every tab of the account once; changes, items and receipts reach each protocol in its shape', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annOne, annTwo] = await Promise.all([tabs.open(ann, { protocol: 1 }), tabs.open(ann, { protocol: 2 })]);
    const [benOne, benTwo] = await Promise.all([tabs.open(ben, { protocol: 1 }), tabs.open(ben, { protocol: 2 })]);
    const first = await sendAccepted(annOne, ben, 'hello');
    const message = await sendAccepted(annOne, ben, 'again');
    await settled(benOne, benTwo);
    const heard = (socket: ClientSocket) => ({
      count: record(socket, 'message_count'),
      followed: record(socket, 'followed'),
      follower: record(socket, 'follower'),
      safety: record(socket, 'safety_changed'),
      change: record(socket, 'message_change'),
      read: record(socket, 'conversation_read'),
      item: recordProtocol2<AccountItem>(socket, 'account_item'),
      seen: recordProtocol2<SeenPayload>(socket, 'seen'),
    });
    const ben1 = heard(benOne);
    const ben2 = heard(benTwo);
    const ann1 = heard(annOne);
    const ann2 = heard(annTwo);

    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    expect(await emitWithAck(benTwo, 'follow', { user_id: ann.user.id, follow: true })).toMatchObject({ data: { following: true } });
    expect((await api(t.url, `/conversations/${ann.user.id}`, { method: 'PATCH', token: ben.bearer, json: { muted: true } })).status).toBe(200);
    expect(await emitWithAck(annTwo, 'react', { message_id: message.id, emoji: '👍', add: true })).toMatchObject({ data: {} });
    expect(await emitWithAck(benOne, 'hide', { message_id: message.id })).toMatchObject({ data: {} });
    await settled(annOne, annTwo, benOne, benTwo);

    // And at compile time: what the HTTP side sends to every socket can only be an event both share.
    const notifier = { notify: () => undefined } as unknown as SocketNotifier;
    // @ts-expect-error protocol 2 changes `message`'s shape
    notifier.notify(ben.user.id, 'message', message);
    // @ts-expect-error and `typing`'s
    notifier.notify(ben.user.id, 'typing', { user_id: ann.user.id, typing: true });

    const follow = { follower_id: ben.user.id, followee_id: ann.user.id, following: true, followers_count: 1 };
    for (const benTab of [ben1, ben2]) {
      expect(benTab.count).toEqual([{ count: 0 }]);
      expect(benTab.followed).toEqual([follow]);
      expect(benTab.safety).toEqual([{ type: 'mute', user_id: ann.user.id, muted: true }]);
    }
    for (const annTab of [ann1, ann2]) expect(annTab.follower).toEqual([follow]);

    // Protocol 1: by each account's seq and the peer's id, in its rooms only.
    expect(ben1.read).toEqual([{ user_id: ann.user.id, unread_count: 0 }]);
    expect(ben1.change.map((change) => change.kind)).toEqual(['read', 'reaction', 'hide']);
    expect(ann1.change.map((change) => change.kind)).toEqual(['seen', 'reaction']);
    for (const one of [ben1, ann1]) expect([...one.item, ...one.seen]).toEqual([]);

    // Protocol 2: the change as sync_conversation reads it, to both members; each account's items
    // as sync_account reads them, to its devices; the receipt by conversation, to the sender's.
    const read = await emitWithAck<Ack<ConversationSyncResult>>(annTwo, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in read)) throw new Error(JSON.stringify(read));
    expect(read.data.changes).toEqual([expect.objectContaining({ seq: 3, kind: 'reaction', message_id: message.id, actor_id: ann.user.id })]);
    expect(ann2.change).toEqual(read.data.changes);
    expect(ben2.change).toEqual(read.data.changes);
    const items = await emitWithAck<Ack<AccountSyncResult>>(benTwo, 'sync_account', { cursor: '0.0.0.0' });
    if (!('data' in items)) throw new Error(JSON.stringify(items));
    expect(items.data.items.map((item) => item.kind)).toEqual(['read', 'muted', 'hide']);
    expect(ben2.item).toEqual(items.data.items);
    expect(ben2.item[2]).toMatchObject({ kind: 'hide', message_id: message.id, preview: { id: first.id, seq: 1, text: 'hello' } });
    expect(ann2.item).toEqual([]);
    expect(ann2.seen).toEqual([{ conversation_id: conversation, user_id: ben.user.id, seq: 2, read_at: expect.any(String) }]);
    expect(ben2.seen).toEqual([]);
    expect(ben2.read).toEqual([]);
  });

  it('protocol 2 acks a change as it is pushed: the change every member gets, a deletion for oneself as the item', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTwo, benTwo] = await Promise.all([tabs.open(ann, { protocol: 2 }), tabs.open(ben, { protocol: 2 })]);
    const message = await sendAccepted(annTwo, ben, 'react to me');
    await settled(annTwo, benTwo);
    const changes = recordProtocol2<ConversationChange>(benTwo, 'message_change');
    const items = recordProtocol2<AccountItem>(benTwo, 'account_item');

    const reacted = await emitWithAck<Ack<ChangeResult2>>(benTwo, 'react', { message_id: message.id, emoji: '🎉', add: true });
    // Already so: nothing changed, nothing to apply.
    expect(await emitWithAck(benTwo, 'react', { message_id: message.id, emoji: '🎉', add: true })).toEqual({ data: { change: null } });
    const hidden = await emitWithAck<Ack<ChangeResult2>>(benTwo, 'hide', { message_id: message.id });
    await settled(benTwo);
    expect(reacted).toEqual({ data: { change: changes[0] } });
    expect(changes[0]).toMatchObject({ kind: 'reaction', message_id: message.id, actor_id: ben.user.id, seq: 2 });
    expect(hidden).toEqual({ data: { change: items[0] } });
    expect(items[0]).toMatchObject({ kind: 'hide', message_id: message.id, preview: null });
  });

  it('protocol 2 names conversations where protocol 1 names people: send, read and typing by conversation id', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTwo, annOne] = await Promise.all([tabs.open(ann, { protocol: 2 }), tabs.open(ann, { protocol: 1 })]);
    const [benOne, benTwo] = await Promise.all([tabs.open(ben, { protocol: 1 }), tabs.open(ben, { protocol: 2 })]);
    const catTwo = await tabs.open(cat, { protocol: 2 });

    // A direct conversation begins by person; the ack names it.
    const first = await emitWithAck<Ack<ConversationMessage>>(annTwo, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'first' });
    if (!('data' in first)) throw new Error(JSON.stringify(first));
    const conversation = first.data.conversation_id;
    expect(conversation).toBe(await directConversationId(t.db, ann.user.id, ben.user.id));
    // Then by conversation, into the same stream.
    const received = record(benTwo, 'message');
    const second = await emitWithAck<Ack<ConversationMessage>>(annTwo, 'send', { client_id: randomUUID(), conversation_id: conversation, text: 'second' });
    expect(second).toEqual({ data: expect.objectContaining({ conversation_id: conversation, seq: 2, text: 'second' }) });
    await settled(benTwo);
    expect(received.map((message) => message.text)).toEqual(['second']);

    // Someone else's conversation, or none, is not found; both targets or neither are refused.
    const notFound = { error: { non_field_errors: ['conversation_id: Conversation not found.'] } };
    expect(await emitWithAck(catTwo, 'send', { client_id: randomUUID(), conversation_id: conversation, text: 'let me in' })).toEqual(notFound);
    expect(await emitWithAck(catTwo, 'read', { conversation_id: conversation })).toEqual(notFound);
    expect(await emitWithAck(catTwo, 'typing', { conversation_id: conversation, typing: true })).toEqual(notFound);
    const both = await emitWithAck(annTwo, 'send', { client_id: randomUUID(), conversation_id: conversation, recipient_id: ben.user.id, text: 'x' });
    expect(both).toEqual({ error: { non_field_errors: [expect.stringMatching(/conversation_id or recipient_id/)] } });
    expect(await emitWithAck(annTwo, 'typing', { typing: true })).toEqual({ error: { non_field_errors: [expect.stringMatching(/conversation_id or user_id/)] } });
    // Each protocol's shape on its own sockets only.
    expect(await emitWithAck(annOne, 'send', { client_id: randomUUID(), conversation_id: conversation, text: 'x' })).toMatchObject({ error: { non_field_errors: expect.any(Array) } });
    expect(await emitWithAck(annTwo, 'read', { user_id: ben.user.id })).toMatchObject({ error: { non_field_errors: expect.any(Array) } });

    // Typing by conversation reaches the other member; a read by conversation reads it.
    const typing = record(benOne, 'typing');
    const typing2 = record(benTwo, 'typing');
    expect(await emitWithAck(annTwo, 'typing', { conversation_id: conversation, typing: true })).toEqual({ data: {} });
    await settled(benOne, benTwo);
    expect(typing).toEqual([{ user_id: ann.user.id, typing: true }]);
    expect(typing2).toEqual([{ conversation_id: conversation, user_id: ann.user.id, typing: true }]);
    // To someone not yet written to: by person, and with no conversation to place it in, protocol 2's tabs hear nothing.
    const catOne = await tabs.open(cat, { protocol: 1 });
    const catHears = [record(catOne, 'typing'), record(catTwo, 'typing')];
    expect(await emitWithAck(annTwo, 'typing', { user_id: cat.user.id, typing: true })).toEqual({ data: {} });
    await settled(catOne, catTwo);
    expect(catHears).toEqual([[{ user_id: ann.user.id, typing: true }], []]);
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation, up_to: first.data.id })).toEqual({ data: { count: 1, unread_count: 1 } });
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
  });

  it('protocol 2 hears edits and unsendings as sync_conversation reads them, a receipt only when both have receipts on, and a mute by conversation', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTwo, benTwo] = await Promise.all([tabs.open(ann, { protocol: 2 }), tabs.open(ben, { protocol: 2 })]);
    const first = await sendAccepted(annTwo, ben, 'first');
    const second = await sendAccepted(annTwo, ben, 'second');
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    await settled(benTwo);
    const benChanges = record(benTwo, 'message_change');
    const annSeen = recordProtocol2<SeenPayload>(annTwo, 'seen');
    const benItems = recordProtocol2<AccountItem>(benTwo, 'account_item');

    expect(await emitWithAck(annTwo, 'edit', { message_id: first.id, text: 'first, edited' })).toMatchObject({ data: {} });
    expect(await emitWithAck(annTwo, 'unsend', { message_id: second.id })).toMatchObject({ data: {} });
    // Ben turns read receipts off: his read tells Ann nothing.
    expect((await api(t.url, '/accounts/settings', { method: 'PATCH', token: ben.bearer, json: { read_receipts: false } })).status).toBe(200);
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation })).toMatchObject({ data: { count: 0 } });
    const muted = await api(t.url, `/c/${conversation}`, { method: 'PATCH', token: ben.bearer, json: { muted: true } });
    expect(muted).toMatchObject({ status: 200, body: { conversation_id: conversation, muted: true } });
    await settled(annTwo, benTwo);

    const read = await emitWithAck<Ack<ConversationSyncResult>>(benTwo, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in read)) throw new Error(JSON.stringify(read));
    expect(read.data.changes.map((change) => change.kind)).toEqual(['edit', 'unsend']);
    expect(benChanges).toEqual(read.data.changes);
    expect(annSeen).toEqual([]);
    expect(benItems.map((item) => item.kind)).toEqual(['read', 'muted']);
    expect(benItems[1]).toMatchObject({ conversation_id: conversation, kind: 'muted', muted: true });
  });
});
