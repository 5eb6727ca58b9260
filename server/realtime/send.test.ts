import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH, type Ack, type Conversation, type MessagePayload, type Page } from '../../lib/contract';
import { messages } from '../db/schema';
import { createUpload } from '../db/uploads';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});

const send = (socket: ClientSocket, payload: Record<string, unknown>) =>
  emitWithAck<Ack<MessagePayload>>(socket, 'send', { client_id: randomUUID(), text: 'hello', ...payload });
const dataOf = (ack: Ack<MessagePayload>): MessagePayload => {
  if (!('data' in ack)) throw new Error(`send refused: ${JSON.stringify(ack)}`);
  return ack.data;
};

describe('send', () => {
  it('acks the stored message, delivers `message` to every recipient tab and `message_sent` to the sender’s other tabs', async () => {
    const [sending, otherTab, bobTab1, bobTab2] = await Promise.all([tabs.open(alice), tabs.open(alice), tabs.open(bob), tabs.open(bob)]);
    const bobGot = [nextEvent<MessagePayload>(bobTab1, 'message'), nextEvent<MessagePayload>(bobTab2, 'message')];
    const otherTabGot = nextEvent<MessagePayload>(otherTab, 'message_sent');
    const sendingTab = { message: record(sending, 'message'), sent: record(sending, 'message_sent') };
    const otherTabMessages = record(otherTab, 'message');

    const clientId = randomUUID();
    const message = dataOf(await send(sending, { client_id: clientId, recipient_id: bob.user.id, text: 'Hi Bob' }));
    expect(message).toEqual({
      id: expect.any(Number),
      client_id: clientId,
      sender_id: alice.user.id,
      recipient_id: bob.user.id,
      text: 'Hi Bob',
      attachment: null,
      attachment_removed: false,
      created_at: expect.stringMatching(/Z$/),
      read_at: null,
      seq: 1,
      edited_at: null,
      deleted: false,
      reactions: [],
      version: 1,
      reply_to: null,
    });
    expect(await Promise.all(bobGot)).toEqual([message, message]);
    expect(await otherTabGot).toEqual(message);

    // Barrier: Bob's reply reaches Alice's tabs after anything from her own send would have.
    const replyArrives = [nextEvent(sending, 'message'), nextEvent(otherTab, 'message')];
    dataOf(await send(bobTab1, { recipient_id: alice.user.id, text: 'reply' }));
    await Promise.all(replyArrives);
    expect(sendingTab.sent).toEqual([]);
    expect(sendingTab.message.map((m) => m.text)).toEqual(['reply']);
    expect(otherTabMessages.map((m) => m.text)).toEqual(['reply']);
  });

  it('stores a repeated client_id once: same ack, one broadcast, one unread', async () => {
    const [carol, dave] = await Promise.all([signIn(t.url, 'Carol'), signIn(t.url, 'Dave')]);
    const [sending, daveTab] = await Promise.all([tabs.open(carol), tabs.open(dave)]);
    const daveGot = record(daveTab, 'message');
    const payload = { client_id: randomUUID(), recipient_id: dave.user.id, text: 'once' };

    const first = await send(sending, payload);
    const retry = await send(sending, { ...payload, text: 'changed on retry' });
    expect(retry).toEqual(first);
    const rows = await t.db.select().from(messages).where(eq(messages.senderId, carol.user.id));
    expect(rows).toHaveLength(1);

    const barrier = nextEvent<MessagePayload>(daveTab, 'message');
    await send(sending, { recipient_id: dave.user.id, text: 'second' });
    await barrier;
    expect(daveGot.map((m) => m.text)).toEqual(['once', 'second']);
    const list = await api<Page<Conversation>>(t.url, '/conversations', { token: dave.bearer });
    expect(list.body.results[0]?.unread_count).toBe(2);
  });

  it('counts unread per conversation and in total, and a fresh init reports the total', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await send(annTab, { recipient_id: me.user.id });
    await send(annTab, { recipient_id: me.user.id });
    await send(benTab, { recipient_id: me.user.id });

    const list = await api<Page<Conversation>>(t.url, '/conversations', { token: me.bearer });
    expect(list.body.results.map((c) => [c.user.id, c.unread_count])).toEqual([
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

  it.each([
    ['a message to yourself', () => ({ recipient_id: alice.user.id }), field],
    ['a message to an unknown user', () => ({ recipient_id: 2_000_000_000 }), { error: { non_field_errors: ['recipient_id: User not found.'] } }],
    ['a text over the limit', () => ({ recipient_id: bob.user.id, text: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) }), field],
    ['an empty text without attachment', () => ({ recipient_id: bob.user.id, text: '   ' }), field],
    ['a client_id that is not a uuid', () => ({ recipient_id: bob.user.id, client_id: 'c1' }), field],
    ['an unknown field', () => ({ recipient_id: bob.user.id, sender_id: bob.user.id }), field],
    ['a missing recipient', () => ({}), field],
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

  it('refuses an inactive recipient', async () => {
    const gone = await signIn(t.url, 'Gone');
    await setUserActive(t.db, gone.user.id, false);
    const socket = await tabs.open(alice);
    expect(await send(socket, { recipient_id: gone.user.id })).toEqual({
      error: { non_field_errors: ['recipient_id: User not found.'] },
    });
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
