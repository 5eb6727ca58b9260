// The sockets' rooms and pushes (docs/design/conversations.md 4.3): each socket joins its account's
// messaging room at init; messages and changes reach every member's tabs as sync_conversation reads
// them, the account's items its own tabs as sync_account reads them, and what an account is told
// (counts, follows, safety) every one of its tabs once.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AccountSyncResult, Ack, ChangeResult, ConversationMessage, ConversationSyncResult } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { api, signIn, startTestServer } from '../test/helpers';
import { emitWithAck, sendAccepted, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

/** A round trip on each socket: every push emitted before it has arrived. */
const settled = (...sockets: ClientSocket[]) => Promise.all(sockets.map((socket) => emitWithAck(socket, 'sync_account', {})));

const roomOf = async (room: string) => (await t.server.io.in(room).fetchSockets()).map((socket) => socket.id).sort();

describe('socket rooms', () => {
  it('init joins the account’s messaging room (user2:, the name the nodes of the release before share), and only init does', async () => {
    const ann = await signIn(t.url, 'Ann');
    const [first, second, early] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ann, { init: false })]);
    expect(await roomOf(`user2:${ann.user.id}`)).toEqual([first.id, second.id].sort());
    expect(early.connected).toBe(true);
  });

  it('a socket is refused every event before its init', async () => {
    const ann = await signIn(t.url, 'Ann');
    const socket = await tabs.open(ann, { init: false });
    expect(await emitWithAck(socket, 'sync_account', {})).toEqual({ error: { msg: 'Send init before other events.' } });
    await emitWithAck(socket, 'init', { id: ann.user.id });
    expect(await emitWithAck(socket, 'sync_account', {})).toMatchObject({ data: { has_more: false } });
  });

  it('a message reaches every tab of both people as sync_conversation reads it, the sender’s as message_sent', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annOther, annTwo, annSender] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ann)]);
    const benTwo = await tabs.open(ben);
    const received = { benTwo: record(benTwo, 'message') };
    const sent = { annTwo: record(annTwo, 'message_sent'), annSender: record(annSender, 'message_sent') };
    const annMessages = [record(annOther, 'message'), record(annTwo, 'message')];

    await sendAccepted(annSender, ben, 'first');
    const payload = { client_id: randomUUID(), recipient_id: ben.user.id, text: 'second' };
    const acked = await emitWithAck<Ack<ConversationMessage>>(annSender, 'send', payload);
    await sendAccepted(annOther, ben, 'third');
    await settled(annOther, annTwo, annSender, benTwo);

    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    const read = await emitWithAck<Ack<ConversationSyncResult>>(benTwo, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in read)) throw new Error(JSON.stringify(read));
    // The copy every member gets, by the conversation's seqs, nothing of a reader's own.
    expect(received.benTwo).toEqual(read.data.messages);
    expect(received.benTwo.map((pushed) => [pushed.seq, pushed.text])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ]);
    expect(received.benTwo[1]).not.toHaveProperty('recipient_id');
    // The sender's ack is its message's place in that stream, and a retry's the same.
    expect(acked).toEqual({ data: read.data.messages[1] });
    expect(await emitWithAck(annSender, 'send', payload)).toEqual(acked);
    // The sender's other tabs; the sending tab has its ack instead.
    expect(sent.annTwo).toEqual([read.data.messages[0], read.data.messages[1], read.data.messages[2]]);
    expect(sent.annSender).toEqual([read.data.messages[2]]);
    expect(annMessages.flat()).toEqual([]);
  });

  it('what an account is told reaches every tab of it once; changes to every member, items to the account, receipts to the sender', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annOne, annTwo] = await Promise.all([tabs.open(ann), tabs.open(ann)]);
    const [benOne, benTwo] = await Promise.all([tabs.open(ben), tabs.open(ben)]);
    const first = await sendAccepted(annOne, ben, 'hello');
    const message = await sendAccepted(annOne, ben, 'again');
    await settled(benOne, benTwo);
    const heard = (socket: ClientSocket) => ({
      count: record(socket, 'message_count'),
      followed: record(socket, 'followed'),
      follower: record(socket, 'follower'),
      safety: record(socket, 'safety_changed'),
      change: record(socket, 'message_change'),
      item: record(socket, 'account_item'),
      seen: record(socket, 'seen'),
    });
    const [ben1, ben2, ann1, ann2] = [heard(benOne), heard(benTwo), heard(annOne), heard(annTwo)];

    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    expect(await emitWithAck(benTwo, 'follow', { user_id: ann.user.id, follow: true })).toMatchObject({ data: { following: true } });
    expect((await api(t.url, `/conversations/${ann.user.id}`, { method: 'PATCH', token: ben.bearer, json: { muted: true } })).status).toBe(200);
    expect(await emitWithAck(annTwo, 'react', { message_id: message.id, emoji: '👍', add: true })).toMatchObject({ data: {} });
    expect(await emitWithAck(benOne, 'hide', { message_id: message.id })).toMatchObject({ data: {} });
    await settled(annOne, annTwo, benOne, benTwo);

    const follow = { follower_id: ben.user.id, followee_id: ann.user.id, following: true, followers_count: 1 };
    for (const benTab of [ben1, ben2]) {
      expect(benTab.count).toEqual([{ count: 0 }]);
      expect(benTab.followed).toEqual([follow]);
      expect(benTab.safety).toEqual([{ type: 'mute', user_id: ann.user.id, muted: true }]);
    }
    for (const annTab of [ann1, ann2]) expect(annTab.follower).toEqual([follow]);

    // The change as sync_conversation reads it, to both members' tabs; each account's items as
    // sync_account reads them, to its devices; the receipt by conversation, to the sender's.
    const read = await emitWithAck<Ack<ConversationSyncResult>>(annTwo, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in read)) throw new Error(JSON.stringify(read));
    expect(read.data.changes).toEqual([expect.objectContaining({ seq: 3, kind: 'reaction', message_id: message.id, actor_id: ann.user.id })]);
    for (const tab of [ann1, ann2, ben1, ben2]) expect(tab.change).toEqual(read.data.changes);
    const items = await emitWithAck<Ack<AccountSyncResult>>(benTwo, 'sync_account', { cursor: '0.0.0.0' });
    if (!('data' in items)) throw new Error(JSON.stringify(items));
    expect(items.data.items.map((item) => item.kind)).toEqual(['read', 'muted', 'hide']);
    for (const benTab of [ben1, ben2]) expect(benTab.item).toEqual(items.data.items);
    expect(ben2.item[2]).toMatchObject({ kind: 'hide', message_id: message.id, preview: { id: first.id, seq: 1, text: 'hello' } });
    for (const annTab of [ann1, ann2]) {
      expect(annTab.item).toEqual([]);
      expect(annTab.seen).toEqual([{ conversation_id: conversation, user_id: ben.user.id, seq: 2, read_at: expect.any(String) }]);
    }
    for (const benTab of [ben1, ben2]) expect(benTab.seen).toEqual([]);
  });

  it('acks a change as it is pushed: the change every member gets, a deletion for oneself as the item', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTwo, benTwo] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const message = await sendAccepted(annTwo, ben, 'react to me');
    await settled(annTwo, benTwo);
    const changes = record(benTwo, 'message_change');
    const items = record(benTwo, 'account_item');

    const reacted = await emitWithAck<Ack<ChangeResult>>(benTwo, 'react', { message_id: message.id, emoji: '🎉', add: true });
    // Already so: nothing changed, nothing to apply.
    expect(await emitWithAck(benTwo, 'react', { message_id: message.id, emoji: '🎉', add: true })).toEqual({ data: { change: null } });
    const hidden = await emitWithAck<Ack<ChangeResult>>(benTwo, 'hide', { message_id: message.id });
    await settled(benTwo);
    expect(reacted).toEqual({ data: { change: changes[0] } });
    expect(changes[0]).toMatchObject({ kind: 'reaction', message_id: message.id, actor_id: ben.user.id, seq: 2 });
    expect(hidden).toEqual({ data: { change: items[0] } });
    expect(items[0]).toMatchObject({ kind: 'hide', message_id: message.id, preview: null });
  });

  it('names conversations, a person only to begin one: send, read and typing by conversation id', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const annTwo = await tabs.open(ann);
    const benTwo = await tabs.open(ben);
    const catTwo = await tabs.open(cat);

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
    // Protocol 1's shapes (a person where a conversation is named) are refused.
    expect(await emitWithAck(annTwo, 'read', { user_id: ben.user.id })).toMatchObject({ error: { non_field_errors: expect.any(Array) } });

    // Typing by conversation reaches the other member; a read by conversation reads it.
    const typing2 = record(benTwo, 'typing');
    expect(await emitWithAck(annTwo, 'typing', { conversation_id: conversation, typing: true })).toEqual({ data: {} });
    await settled(benTwo);
    expect(typing2).toEqual([{ conversation_id: conversation, user_id: ann.user.id, typing: true }]);
    // To someone not yet written to: by person, and with no conversation to place it in, nothing is heard.
    const catHears = record(catTwo, 'typing');
    expect(await emitWithAck(annTwo, 'typing', { user_id: cat.user.id, typing: true })).toEqual({ data: {} });
    await settled(catTwo);
    expect(catHears).toEqual([]);
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation, up_to: first.data.id })).toEqual({ data: { count: 1, unread_count: 1 } });
    expect(await emitWithAck(benTwo, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
  });

  it('hears edits and unsendings as sync_conversation reads them, a receipt only when both have receipts on, and a mute by conversation', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTwo, benTwo] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const first = await sendAccepted(annTwo, ben, 'first');
    const second = await sendAccepted(annTwo, ben, 'second');
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    await settled(benTwo);
    const benChanges = record(benTwo, 'message_change');
    const annSeen = record(annTwo, 'seen');
    const benItems = record(benTwo, 'account_item');

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
