import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, ConversationPage, MessagePayload, SyncResult } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });

const store = (from: SignedInUser, to: SignedInUser, text = 'hi') =>
  insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text });

async function sync(socket: ClientSocket, payload: unknown): Promise<Ack<SyncResult>> {
  return emitWithAck<Ack<SyncResult>>(socket, 'sync', payload);
}

describe('message seq', () => {
  it('numbers each account’s messages 1, 2, 3… in the order stored, sent and received alike', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const first = await store(ann, ben); // ann 1, ben 1
    const second = await store(cat, ann); // cat 1, ann 2
    const third = await store(ben, ann); // ben 2, ann 3
    expect([first.message.seq, first.forRecipient.seq]).toEqual([1, 1]);
    expect([second.message.seq, second.forRecipient.seq]).toEqual([1, 2]);
    expect([third.message.seq, third.forRecipient.seq]).toEqual([2, 3]);
  });

  it('gives the recipient its own seq in `message`, the sender its own in the ack and `message_sent`', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await store(ann, ben); // ann 1, ben 1
    await store(ann, ben); // ann 2, ben 2
    const cat = await signIn(t.url, 'Cat');
    await store(cat, ann); // ann 3
    const [annTab, annOther, benTab] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben)]);
    const benGot = nextEvent<MessagePayload>(benTab, 'message');
    const otherGot = nextEvent<MessagePayload>(annOther, 'message_sent');
    const ack = await emitWithAck<Ack<MessagePayload>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'x' });
    if (!('data' in ack)) throw new Error(JSON.stringify(ack));
    expect(ack.data.seq).toBe(4);
    expect((await otherGot).seq).toBe(4);
    expect(await benGot).toEqual({ ...ack.data, seq: 3, version: 3 });
  });
});

describe('sync', () => {
  it('returns the account’s messages after a seq, both directions, oldest first, with the cursor', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    await store(ann, ben, 'a1');
    await store(ben, ann, 'b1');
    await store(cat, ben, 'not ann’s');
    await store(cat, ann, 'c1');
    const socket = await tabs.open(ann);

    const all = await sync(socket, { after: 0 });
    expect(all).toEqual({
      data: {
        messages: [
          expect.objectContaining({ text: 'a1', seq: 1 }),
          expect.objectContaining({ text: 'b1', seq: 2 }),
          expect.objectContaining({ text: 'c1', seq: 3 }),
        ],
        changes: [],
        through: 3,
        last_seq: 3,
        has_more: false,
      },
    });
    expect(await sync(socket, { after: 2 })).toEqual({
      data: { messages: [expect.objectContaining({ text: 'c1', seq: 3 })], changes: [], through: 3, last_seq: 3, has_more: false },
    });
    expect(await sync(socket, { after: 3 })).toEqual({ data: { messages: [], changes: [], through: 3, last_seq: 3, has_more: false } });
  });

  it('pages a long backlog without gaps or repeats', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    for (let i = 0; i < 7; i += 1) await (i % 2 === 0 ? store(ann, ben, `m${i}`) : store(ben, ann, `m${i}`));
    const socket = await tabs.open(ben);
    const seen: number[] = [];
    let after = 0;
    for (let pages = 0; pages < 10; pages += 1) {
      const ack = await sync(socket, { after, limit: 3 });
      if (!('data' in ack)) throw new Error(JSON.stringify(ack));
      seen.push(...ack.data.messages.map((message) => message.seq));
      after = ack.data.messages.at(-1)?.seq ?? after;
      if (!ack.data.has_more) break;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses bad cursors and limits with a field error, and needs init first', async () => {
    const ann = await signIn(t.url, 'Ann');
    const socket = await tabs.open(ann);
    for (const payload of [{}, { after: -1 }, { after: 1.5 }, { after: '3' }, { after: 0, limit: 501 }, { after: 0, extra: 1 }, null]) {
      expect(await sync(socket, payload)).toEqual({ error: { non_field_errors: expect.any(Array) } });
    }
    const fresh = await tabs.open(ann, { init: false });
    expect(await sync(fresh, { after: 0 })).toEqual({ error: { msg: 'Send init before other events.' } });
  });
});

describe('GET /api/conversations last_seq', () => {
  it('carries the account’s latest seq with the page', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await store(ann, ben);
    await store(ben, ann);
    const response = await api<ConversationPage>(t.url, '/conversations', { token: ann.bearer });
    expect(response.body.last_seq).toBe(2);
  });
});
