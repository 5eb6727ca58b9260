import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH, type Ack, type ConversationMessage, type ConversationSummaryPage } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { messages } from '../db/schema';
import { createUpload } from '../db/uploads';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});

const send = (socket: ClientSocket, payload: Record<string, unknown>) =>
  emitWithAck<Ack<ConversationMessage>>(socket, 'send', { client_id: randomUUID(), text: 'hello', ...payload });
const dataOf = (ack: Ack<ConversationMessage>): ConversationMessage => {
  if (!('data' in ack)) throw new Error(`send refused: ${JSON.stringify(ack)}`);
  return ack.data;
};

describe('send', () => {
  it('acks the stored message, delivers `message` to every recipient tab and `message_sent` to the sender’s other tabs, the same copy to all', async () => {
    const [sending, otherTab, bobTab1, bobTab2] = await Promise.all([tabs.open(alice), tabs.open(alice), tabs.open(bob), tabs.open(bob)]);
    const bobGot = [nextEvent<ConversationMessage>(bobTab1, 'message'), nextEvent<ConversationMessage>(bobTab2, 'message')];
    const otherTabGot = nextEvent<ConversationMessage>(otherTab, 'message_sent');
    const sendingTab = { message: record(sending, 'message'), sent: record(sending, 'message_sent') };
    const otherTabMessages = record(otherTab, 'message');

    const clientId = randomUUID();
    // By person: how a direct conversation begins.
    const message = dataOf(await send(sending, { client_id: clientId, recipient_id: bob.user.id, text: 'Hi Bob' }));
    expect(message).toEqual({
      id: expect.any(Number),
      conversation_id: await directConversationId(t.db, alice.user.id, bob.user.id),
      seq: 1,
      version: 1,
      client_id: clientId,
      sender_id: alice.user.id,
      text: 'Hi Bob',
      attachment: null,
      attachment_removed: false,
      created_at: expect.stringMatching(/Z$/),
      edited_at: null,
      deleted: false,
      reactions: [],
      reply_to: null,
    });
    expect(await Promise.all(bobGot)).toEqual([message, message]);
    expect(await otherTabGot).toEqual(message);

    // Barrier: Bob's reply, into the conversation by its id, reaches Alice's tabs after anything from her own send would have.
    const replyArrives = [nextEvent(sending, 'message'), nextEvent(otherTab, 'message')];
    const reply = dataOf(await send(bobTab1, { conversation_id: message.conversation_id, text: 'reply' }));
    expect(reply).toMatchObject({ conversation_id: message.conversation_id, seq: 2, sender_id: bob.user.id });
    await Promise.all(replyArrives);
    expect(sendingTab.sent).toEqual([]);
    expect(sendingTab.message).toEqual([reply]);
    expect(otherTabMessages).toEqual([reply]);
  });

  it('stores a repeated client_id once, by person or by conversation: same ack, one broadcast, one unread', async () => {
    const [carol, dave] = await Promise.all([signIn(t.url, 'Carol'), signIn(t.url, 'Dave')]);
    const [sending, daveTab] = await Promise.all([tabs.open(carol), tabs.open(dave)]);
    const daveGot = record(daveTab, 'message');
    const payload = { client_id: randomUUID(), recipient_id: dave.user.id, text: 'once' };

    const first = await send(sending, payload);
    const retry = await send(sending, { ...payload, text: 'changed on retry' });
    expect(retry).toEqual(first);
    const byConversation = { client_id: randomUUID(), conversation_id: dataOf(first).conversation_id, text: 'second' };
    const second = await send(sending, byConversation);
    expect(await send(sending, byConversation)).toEqual(second);
    const rows = await t.db.select().from(messages).where(eq(messages.senderId, carol.user.id));
    expect(rows).toHaveLength(2);

    const barrier = nextEvent(daveTab, 'message');
    await send(sending, { recipient_id: dave.user.id, text: 'third' });
    await barrier;
    // No seq taken by a retry: the conversation's stream has no gap.
    expect(daveGot.map((m) => [m.seq, m.text])).toEqual([
      [1, 'once'],
      [2, 'second'],
      [3, 'third'],
    ]);
    const list = await api<ConversationSummaryPage>(t.url, '/c', { token: dave.bearer });
    expect(list.body.results[0]?.unread_count).toBe(3);
  });

  it('counts unread per conversation and in total, and a fresh init reports the total', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await send(annTab, { recipient_id: me.user.id });
    await send(annTab, { recipient_id: me.user.id });
    await send(benTab, { recipient_id: me.user.id });

    const list = await api<ConversationSummaryPage>(t.url, '/c', { token: me.bearer });
    expect(list.body.results.map((c) => [c.user?.id, c.unread_count])).toEqual([
      [ben.user.id, 1],
      [ann.user.id, 2],
    ]);
    const tab = await tabs.open(me, { init: false });
    const count = nextEvent(tab, 'message_count');
    await emitWithAck(tab, 'init', { id: me.user.id });
    expect(await count).toEqual({ count: 3 });
  });

  it('accepts an empty text with an upload of the sender’s own, and returns the attachment', async () => {
    const socket = await tabs.open(alice);
    const upload = await createUpload(t.db, {
      ownerId: alice.user.id,
      name: 'photo.jpg',
      mimeType: 'image/jpeg',
      size: 2048,
      width: 10,
      height: 20,
      storageKey: 'photo-key',
    });
    const message = dataOf(await send(socket, { recipient_id: bob.user.id, text: '', attachment_id: upload.id }));
    expect(message.attachment).toMatchObject({ id: upload.id, name: 'photo.jpg', width: 10, height: 20 });
  });
});

describe('send refusals', () => {
  const field = { error: { non_field_errors: [expect.any(String)] } };
  const oneTarget = { error: { non_field_errors: ['Give conversation_id or recipient_id, one of them.'] } };

  it.each([
    ['a message to yourself', () => ({ recipient_id: alice.user.id }), field],
    ['a message to an unknown user', () => ({ recipient_id: 2_000_000_000 }), { error: { non_field_errors: ['recipient_id: User not found.'] } }],
    ['a text over the limit', () => ({ recipient_id: bob.user.id, text: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) }), field],
    ['an empty text without attachment', () => ({ recipient_id: bob.user.id, text: '   ' }), field],
    ['a client_id that is not a uuid', () => ({ recipient_id: bob.user.id, client_id: 'c1' }), field],
    ['an unknown field', () => ({ recipient_id: bob.user.id, sender_id: bob.user.id }), field],
    ['an unknown conversation', () => ({ conversation_id: 2_000_000_000 }), { error: { non_field_errors: ['conversation_id: Conversation not found.'] } }],
    ['both a conversation and a recipient', () => ({ conversation_id: 1, recipient_id: bob.user.id }), oneTarget],
    ['neither a conversation nor a recipient', () => ({}), oneTarget],
  ])('refuses %s and stores nothing', async (_label, payload, expected) => {
    const socket = await tabs.open(alice);
    const before = (await t.db.select().from(messages).where(eq(messages.senderId, alice.user.id))).length;
    expect(await send(socket, payload())).toEqual(expected);
    expect(await t.db.select().from(messages).where(eq(messages.senderId, alice.user.id))).toHaveLength(before);
  });

  it('accepts exactly MAX_MESSAGE_LENGTH characters', async () => {
    const socket = await tabs.open(alice);
    const ack = await send(socket, { recipient_id: bob.user.id, text: 'x'.repeat(MAX_MESSAGE_LENGTH) });
    expect(dataOf(ack).text).toHaveLength(MAX_MESSAGE_LENGTH);
  });

  it('refuses someone else’s upload and an unknown one alike', async () => {
    const socket = await tabs.open(alice);
    const foreign = await createUpload(t.db, {
      ownerId: bob.user.id,
      name: 'bob.pdf',
      mimeType: 'application/pdf',
      size: 1,
      storageKey: 'bob-key',
    });
    for (const attachmentId of [foreign.id, 'no-such-upload']) {
      const ack = await send(socket, { recipient_id: bob.user.id, text: '', attachment_id: attachmentId });
      expect(ack).toEqual({ error: { non_field_errors: ['attachment_id: No such upload of yours.'] } });
    }
  });

  it('refuses an inactive recipient, by person and by the conversation with them', async () => {
    const gone = await signIn(t.url, 'Gone');
    const socket = await tabs.open(alice);
    const before = dataOf(await send(socket, { recipient_id: gone.user.id, text: 'before they left' }));
    await setUserActive(t.db, gone.user.id, false);
    const notFound = { error: { non_field_errors: ['recipient_id: User not found.'] } };
    expect(await send(socket, { recipient_id: gone.user.id })).toEqual(notFound);
    expect(await send(socket, { conversation_id: before.conversation_id })).toEqual(notFound);
  });

  it('refuses a socket that has not sent init, and answers odd argument lists without throwing', async () => {
    const socket = await tabs.open(alice, { init: false });
    expect(await send(socket, { recipient_id: bob.user.id })).toEqual({ error: { msg: expect.stringMatching(/init/) } });
    const ready = await tabs.open(alice);
    expect(await emitWithAck(ready, 'send')).toEqual(field);
    expect(await emitWithAck(ready, 'send', 'text')).toEqual(field);
    ready.emit('send', { client_id: randomUUID(), recipient_id: bob.user.id, text: 'no ack' });
    // Still serving after an emit without an ack callback.
    expect('data' in (await send(ready, { recipient_id: bob.user.id }))).toBe(true);
  });
});
