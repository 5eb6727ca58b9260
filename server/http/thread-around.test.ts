import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, ChangeResult, ConversationMessage, ConversationThreadPage } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());

const get = (viewer: SignedInUser, conversationId: number, query: string) =>
  api<ConversationThreadPage>(t.url, `/c/${conversationId}/messages?${query}`, { token: viewer.bearer });

/** `count` messages between a and b, alternating senders, oldest first, and their conversation. */
async function conversation(count: number): Promise<{ a: SignedInUser; b: SignedInUser; sent: ConversationMessage[]; conversationId: number }> {
  const [a, b] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  const sent: ConversationMessage[] = [];
  for (let i = 0; i < count; i++) {
    const [from, to] = i % 2 ? [b, a] : [a, b];
    sent.push((await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text: `#${i}` })).message);
  }
  return { a, b, sent, conversationId: sent[0]!.conversation_id };
}

describe('GET /api/c/:conversationId/messages?around=', () => {
  it('answers the message with the older half and the newer half, newest first, and pages both ways to the ends', async () => {
    const { a, b, sent, conversationId } = await conversation(30);
    const ids = sent.map((m) => m.id);
    const target = ids[14]!;
    const page = await get(a, conversationId, `around=${target}&limit=10`);
    expect(page.status).toBe(200);
    // Five older including the message itself, five newer.
    expect(page.body.results.map((m) => m.id)).toEqual(ids.slice(10, 20).reverse());
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect(page.body.newer_cursor).toEqual(expect.any(String));

    // Newer pages, newest first each, until the newest message is in: then newer_cursor is null.
    const newer: number[] = [];
    let cursor = page.body.newer_cursor;
    while (cursor) {
      const next = await get(a, conversationId, `cursor=${cursor}&limit=4`);
      expect(next.status).toBe(200);
      expect(next.body.next_cursor).toBeNull();
      newer.push(...next.body.results.map((m) => m.id).reverse());
      cursor = next.body.newer_cursor ?? null;
    }
    expect(newer).toEqual(ids.slice(20));

    // Older pages with the usual cursor, to the beginning.
    const older: number[] = [];
    cursor = page.body.next_cursor;
    while (cursor) {
      const next = await get(a, conversationId, `cursor=${cursor}&limit=4`);
      older.push(...next.body.results.map((m) => m.id));
      cursor = next.body.next_cursor;
    }
    expect(older).toEqual(ids.slice(0, 10).reverse());
    // The other side reads the same window.
    expect((await get(b, conversationId, `around=${target}&limit=10`)).body.results.map((m) => m.id)).toEqual(ids.slice(10, 20).reverse());
  });

  it('has no cursor past either end, and with limit 1 still says whether newer messages follow', async () => {
    const { a, sent, conversationId } = await conversation(5);
    const ids = sent.map((m) => m.id);
    const newest = await get(a, conversationId, `around=${ids[4]}`);
    expect(newest.body).toMatchObject({ next_cursor: null, newer_cursor: null });
    expect(newest.body.results.map((m) => m.id)).toEqual([...ids].reverse());
    const oldest = await get(a, conversationId, `around=${ids[0]}&limit=2`);
    expect(oldest.body.results.map((m) => m.id)).toEqual([ids[1], ids[0]]);
    expect(oldest.body.next_cursor).toBeNull();
    const single = await get(a, conversationId, `around=${ids[2]}&limit=1`);
    expect(single.body.results.map((m) => m.id)).toEqual([ids[2]]);
    const after = await get(a, conversationId, `cursor=${single.body.newer_cursor}&limit=5`);
    expect(after.body.results.map((m) => m.id)).toEqual([ids[4], ids[3]]);
    expect((await get(a, conversationId, `around=${ids[4]}&limit=1`)).body.newer_cursor).toBeNull();
  });

  it('answers the same 404 for an unknown id, another conversation and a message the caller hid', async () => {
    const { a, b, sent, conversationId } = await conversation(3);
    const cat = await signIn(t.url, 'Cat');
    const theirs = (await insertMessage(t.db, { senderId: b.user.id, recipientId: cat.user.id, clientId: randomUUID(), text: 'not yours' })).message;
    const tab = await tabs.open(a);
    const hidden = await emitWithAck<Ack<ChangeResult>>(tab, 'hide', { message_id: sent[1]!.id });
    expect(hidden).toHaveProperty('data');
    for (const id of [theirs.id, sent[1]!.id, 9_007_199_254_740_991]) {
      const response = await get(a, conversationId, `around=${id}`);
      expect(response).toMatchObject({ status: 404, body: { msg: 'Message not found.' } });
    }
    // Ben still has the message Ann hid; Cat is not in their conversation, not even around a message of her own.
    expect((await get(b, conversationId, `around=${sent[1]!.id}`)).status).toBe(200);
    expect(await get(cat, conversationId, `around=${theirs.id}`)).toMatchObject({ status: 404, body: { msg: 'Conversation not found.' } });
  });

  it('refuses malformed ids, a cursor with around, and a forged newer cursor', async () => {
    const { a, sent, conversationId } = await conversation(1);
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999999999']) {
      const response = await get(a, conversationId, `around=${bad}`);
      expect(response).toMatchObject({ status: 400, body: { non_field_errors: [expect.stringMatching(/^around: /)] } });
    }
    const page = await get(a, conversationId, 'limit=1');
    const both = await get(a, conversationId, `around=${sent[0]!.id}&cursor=${page.body.next_cursor ?? 'WyJvIiwxXQ'}`);
    expect(both).toMatchObject({ status: 400, body: { non_field_errors: [expect.stringMatching(/^around: /)] } });
    const forged = Buffer.from(JSON.stringify(['w', 'x'])).toString('base64url');
    expect(await get(a, conversationId, `cursor=${forged}`)).toMatchObject({ status: 400, body: { non_field_errors: ['cursor: Invalid cursor.'] } });
  });
});
