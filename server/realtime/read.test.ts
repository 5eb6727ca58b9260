import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Conversation, MessageCountPayload, MessagePayload, Page, ReadResult } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });
let alice: SignedInUser;
beforeAll(async () => {
  alice = await signIn(t.url, 'Alice');
});

const store = (from: number, to: number) =>
  insertMessage(t.db, { senderId: from, recipientId: to, clientId: randomUUID(), text: 'unread' });

describe('read', () => {
  it('marks the conversation read and tells every tab the new total and which conversation was read', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await store(ann.user.id, me.user.id);
    await store(ann.user.id, me.user.id);
    await store(ben.user.id, me.user.id);
    await store(me.user.id, ann.user.id);

    const [reading, other] = await Promise.all([tabs.open(me), tabs.open(me)]);
    const events = [reading, other].map((tab) => ({
      count: nextEvent<MessageCountPayload>(tab, 'message_count'),
      read: nextEvent(tab, 'conversation_read'),
    }));
    const ack = await emitWithAck<Ack<ReadResult>>(reading, 'read', { user_id: ann.user.id });

    expect(ack).toEqual({ data: { count: 1, unread_count: 0 } });
    for (const tab of events) {
      expect(await tab.count).toEqual({ count: 1 });
      expect(await tab.read).toEqual({ user_id: ann.user.id, unread_count: 0 });
    }
    const list = await api<Page<Conversation>>(t.url, '/conversations', { token: me.bearer });
    expect(list.body.results.map((c) => [c.user.id, c.unread_count])).toEqual([
      [ann.user.id, 0],
      [ben.user.id, 1],
    ]);
    const thread = await api<Page<{ sender_id: number; read_at: string | null }>>(
      t.url,
      `/conversations/${ann.user.id}/messages`,
      { token: me.bearer },
    );
    // Ann's messages are read now; Me's own message to Ann is Ann's to read.
    expect(thread.body.results.map((m) => [m.sender_id, m.read_at === null])).toEqual([
      [me.user.id, true],
      [ann.user.id, false],
      [ann.user.id, false],
    ]);
  });

  it('is harmless to repeat, and a message that arrives later counts again', async () => {
    const [me, ann] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann')]);
    await store(ann.user.id, me.user.id);
    const tab = await tabs.open(me);
    expect(await emitWithAck(tab, 'read', { user_id: ann.user.id })).toEqual({ data: { count: 0, unread_count: 0 } });
    expect(await emitWithAck(tab, 'read', { user_id: ann.user.id })).toEqual({ data: { count: 0, unread_count: 0 } });
    await store(ann.user.id, me.user.id);
    const list = await api<Page<Conversation>>(t.url, '/conversations', { token: me.bearer });
    expect(list.body.results[0]?.unread_count).toBe(1);
  });

  it('reads up to a message: those after it stay unread, the counts answer, and a read never goes back', async () => {
    const [me, ann] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann')]);
    const ids: number[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await store(ann.user.id, me.user.id)).message.id);
    const [reading, annTab] = await Promise.all([tabs.open(me), tabs.open(ann)]);
    const receipts = record(annTab, 'message_change');
    const counts = nextEvent<MessageCountPayload>(reading, 'message_count');
    const read = nextEvent(reading, 'conversation_read');

    expect(await emitWithAck(reading, 'read', { user_id: ann.user.id, up_to: ids[1] })).toEqual({ data: { count: 3, unread_count: 3 } });
    expect(await counts).toEqual({ count: 3 });
    expect(await read).toEqual({ user_id: ann.user.id, unread_count: 3 });
    // Back to an earlier message: nothing changes, and the answer says where things stand.
    expect(await emitWithAck(reading, 'read', { user_id: ann.user.id, up_to: ids[0] })).toEqual({ data: { count: 3, unread_count: 3 } });
    expect(await emitWithAck(reading, 'read', { user_id: ann.user.id, up_to: ids[3] })).toEqual({ data: { count: 1, unread_count: 1 } });

    const thread = await api<Page<MessagePayload>>(t.url, `/conversations/${ann.user.id}/messages`, { token: me.bearer });
    expect(thread.body.results.map((m) => [m.id, m.read_at === null])).toEqual([
      [ids[4], true],
      [ids[3], false],
      [ids[2], false],
      [ids[1], false],
      [ids[0], false],
    ]);
    // The sender's "Seen" follows each read to the newest message it reached.
    await expect.poll(() => receipts.length).toBe(2);
    expect(receipts.map((change) => [change.kind, change.message_id])).toEqual([
      ['seen', ids[1]],
      ['seen', ids[3]],
    ]);
  });

  it.each([
    ['your own id', () => ({ user_id: alice.user.id }), { error: { non_field_errors: [expect.any(String)] } }],
    ['an unknown user id', () => ({ user_id: 2_000_000_000 }), { error: { msg: 'User not found.' } }],
    ['a string id', () => ({ user_id: '5' }), { error: { non_field_errors: [expect.any(String)] } }],
    ['no payload', () => undefined, { error: { non_field_errors: [expect.any(String)] } }],
    ['a message id that is not a positive integer', () => ({ user_id: 2, up_to: -1 }), { error: { non_field_errors: [expect.any(String)] } }],
  ])('refuses a read with %s, emitting no counts', async (_label, payload, expected) => {
    const tab = await tabs.open(alice);
    const counts = record(tab, 'message_count');
    expect(await emitWithAck(tab, 'read', payload())).toEqual(expected);
    expect(counts).toEqual([]);
  });

  it('refuses an inactive peer and a socket without init', async () => {
    const gone = await signIn(t.url, 'Gone');
    await setUserActive(t.db, gone.user.id, false);
    const tab = await tabs.open(alice);
    expect(await emitWithAck(tab, 'read', { user_id: gone.user.id })).toEqual({ error: { msg: 'User not found.' } });
    const early = await tabs.open(alice, { init: false });
    expect(await emitWithAck(early, 'read', { user_id: gone.user.id })).toEqual({
      error: { msg: expect.stringMatching(/init/) },
    });
  });
});
