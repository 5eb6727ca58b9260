import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Conversation, MessageCountPayload, Page } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { record, socketTabs } from '../test/tabs';

let t: TestServer;
let alice: SignedInUser;
const tabs = socketTabs(() => t);
beforeAll(async () => {
  t = await startTestServer();
  alice = await signIn(t.url, 'Alice');
});
afterEach(() => tabs.closeAll());
afterAll(() => t.close());

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
    const ack = await emitWithAck<Ack<MessageCountPayload>>(reading, 'read', { user_id: ann.user.id });

    expect(ack).toEqual({ data: { count: 1 } });
    for (const tab of events) {
      expect(await tab.count).toEqual({ count: 1 });
      expect(await tab.read).toEqual({ user_id: ann.user.id });
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
    expect(await emitWithAck(tab, 'read', { user_id: ann.user.id })).toEqual({ data: { count: 0 } });
    expect(await emitWithAck(tab, 'read', { user_id: ann.user.id })).toEqual({ data: { count: 0 } });
    await store(ann.user.id, me.user.id);
    const list = await api<Page<Conversation>>(t.url, '/conversations', { token: me.bearer });
    expect(list.body.results[0]?.unread_count).toBe(1);
  });

  it.each([
    ['your own id', () => ({ user_id: alice.user.id }), { error: { non_field_errors: [expect.any(String)] } }],
    ['an unknown user id', () => ({ user_id: 2_000_000_000 }), { error: { msg: 'User not found.' } }],
    ['a string id', () => ({ user_id: '5' }), { error: { non_field_errors: [expect.any(String)] } }],
    ['no payload', () => undefined, { error: { non_field_errors: [expect.any(String)] } }],
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
