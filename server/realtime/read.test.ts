import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountItem, Ack, ConversationSummaryPage, ConversationThreadPage, MessageCountPayload, ReadResult, SeenPayload } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());
let alice: SignedInUser;
/** A conversation Alice is not in. */
let others: number;
beforeAll(async () => {
  alice = await signIn(t.url, 'Alice');
  const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  others = (await store(ann.user.id, ben.user.id)).message.conversation_id;
});

const store = (from: number, to: number) =>
  insertMessage(t.db, { senderId: from, recipientId: to, clientId: randomUUID(), text: 'unread' });
const list = async (user: SignedInUser) => (await api<ConversationSummaryPage>(t.url, '/c', { token: user.bearer })).body.results;
const thread = async (user: SignedInUser, conversation: number) =>
  (await api<ConversationThreadPage>(t.url, `/c/${conversation}/messages`, { token: user.bearer })).body;

describe('read', () => {
  it('marks the conversation read and tells every tab the new total and which conversation was read', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const conversation = (await store(ann.user.id, me.user.id)).message.conversation_id;
    await store(ann.user.id, me.user.id);
    await store(ben.user.id, me.user.id);
    await store(me.user.id, ann.user.id);

    const [reading, other] = await Promise.all([tabs.open(me), tabs.open(me)]);
    const events = [reading, other].map((tab) => ({
      count: nextEvent<MessageCountPayload>(tab, 'message_count'),
      read: nextEvent<AccountItem>(tab, 'account_item'),
    }));
    const ack = await emitWithAck<Ack<ReadResult>>(reading, 'read', { conversation_id: conversation });

    expect(ack).toEqual({ data: { count: 1, unread_count: 0 } });
    for (const tab of events) {
      expect(await tab.count).toEqual({ count: 1 });
      // The read reaches Me's own message too (seq 3): a read moves to the newest message it covers.
      expect(await tab.read).toEqual({ seq: 1, conversation_id: conversation, kind: 'read', read_seq: 3, unread_count: 0 });
    }
    expect((await list(me)).map((c) => [c.user?.id, c.unread_count])).toEqual([
      [ann.user.id, 0],
      [ben.user.id, 1],
    ]);
    // Ann's messages are read now (Me's position passes them); Me's own message to Ann is Ann's to read.
    const page = await thread(me, conversation);
    expect(page.results.map((m) => [m.sender_id, m.seq])).toEqual([
      [me.user.id, 3],
      [ann.user.id, 2],
      [ann.user.id, 1],
    ]);
    expect(page).toMatchObject({ read_seq: 3, seen: [] });
  });

  it('is harmless to repeat, and a message that arrives later counts again', async () => {
    const [me, ann] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann')]);
    const conversation = (await store(ann.user.id, me.user.id)).message.conversation_id;
    const tab = await tabs.open(me);
    expect(await emitWithAck(tab, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    expect(await emitWithAck(tab, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    await store(ann.user.id, me.user.id);
    expect((await list(me))[0]?.unread_count).toBe(1);
  });

  it('reads up to a message: those after it stay unread, the counts answer, and a read never goes back', async () => {
    const [me, ann] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann')]);
    const stored = [];
    for (let index = 0; index < 5; index += 1) stored.push(await store(ann.user.id, me.user.id));
    const ids = stored.map(({ message }) => message.id);
    const conversation = stored[0]!.message.conversation_id;
    const [reading, annTab] = await Promise.all([tabs.open(me), tabs.open(ann)]);
    const receipts = record(annTab, 'seen');
    const counts = nextEvent<MessageCountPayload>(reading, 'message_count');
    const read = nextEvent<AccountItem>(reading, 'account_item');

    expect(await emitWithAck(reading, 'read', { conversation_id: conversation, up_to: ids[1] })).toEqual({ data: { count: 3, unread_count: 3 } });
    expect(await counts).toEqual({ count: 3 });
    expect(await read).toEqual({ seq: 1, conversation_id: conversation, kind: 'read', read_seq: 2, unread_count: 3 });
    // Back to an earlier message: nothing changes, and the answer says where things stand.
    expect(await emitWithAck(reading, 'read', { conversation_id: conversation, up_to: ids[0] })).toEqual({ data: { count: 3, unread_count: 3 } });
    expect(await emitWithAck(reading, 'read', { conversation_id: conversation, up_to: ids[3] })).toEqual({ data: { count: 1, unread_count: 1 } });

    // Unread: past Me's read position.
    const page = await thread(me, conversation);
    expect(page.results.map((m) => [m.id, m.seq > page.read_seq])).toEqual([
      [ids[4], true],
      [ids[3], false],
      [ids[2], false],
      [ids[1], false],
      [ids[0], false],
    ]);
    // The sender's "Seen" follows each read to the newest message it reached.
    await expect.poll(() => receipts.length).toBe(2);
    expect(receipts).toEqual<SeenPayload[]>([
      { conversation_id: conversation, user_id: me.user.id, seq: 2, read_at: expect.any(String) },
      { conversation_id: conversation, user_id: me.user.id, seq: 4, read_at: expect.any(String) },
    ]);
  });

  it.each([
    ['a conversation you are not in', () => ({ conversation_id: others }), { error: { non_field_errors: ['conversation_id: Conversation not found.'] } }],
    ['an unknown conversation id', () => ({ conversation_id: 2_000_000_000 }), { error: { non_field_errors: ['conversation_id: Conversation not found.'] } }],
    ['a string id', () => ({ conversation_id: String(others) }), { error: { non_field_errors: [expect.any(String)] } }],
    ['a person instead of a conversation (protocol 1’s read)', () => ({ user_id: 2 }), { error: { non_field_errors: [expect.stringMatching(/^conversation_id: /), 'user_id: Unknown field.'] } }],
    ['no payload', () => undefined, { error: { non_field_errors: [expect.any(String)] } }],
    ['a message id that is not a positive integer', () => ({ conversation_id: others, up_to: -1 }), { error: { non_field_errors: [expect.any(String)] } }],
  ])('refuses a read with %s, emitting no counts', async (_label, payload, expected) => {
    const tab = await tabs.open(alice);
    const counts = record(tab, 'message_count');
    const items = record(tab, 'account_item');
    expect(await emitWithAck(tab, 'read', payload())).toEqual(expected);
    expect([counts, items]).toEqual([[], []]);
  });

  it('refuses a conversation with an inactive person, and a socket without init', async () => {
    const gone = await signIn(t.url, 'Gone');
    const conversation = (await store(gone.user.id, alice.user.id)).message.conversation_id;
    await setUserActive(t.db, gone.user.id, false);
    const tab = await tabs.open(alice);
    // As a conversation not found: final, so the client never retries it.
    expect(await emitWithAck(tab, 'read', { conversation_id: conversation })).toEqual({ error: { non_field_errors: ['conversation_id: Conversation not found.'] } });
    const early = await tabs.open(alice, { init: false });
    expect(await emitWithAck(early, 'read', { conversation_id: conversation })).toEqual({
      error: { msg: expect.stringMatching(/init/) },
    });
  });
});
