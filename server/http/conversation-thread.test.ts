// GET /api/c/:conversationId/messages: protocol 2's thread pages, by the conversation's seq, each
// message as every member sees it (what sync_conversation reads), with the receipts the caller may see.
import { describe, expect, it } from 'vitest';
import type { Ack, ConversationSyncResult, ConversationThreadPage } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, sendAccepted } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

const thread = (user: SignedInUser, conversation: number, query = '') =>
  api<ConversationThreadPage>(t.url, `/c/${conversation}/messages${query}`, { token: user.bearer });

async function twoPeople(count: number) {
  const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
  const sent = [];
  for (let i = 1; i <= count; i++) sent.push(await sendAccepted(i % 2 === 0 ? benTab : annTab, i % 2 === 0 ? ann : ben, `m${i}`));
  const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
  return { ann, ben, annTab, benTab, sent, conversation };
}

describe('GET /api/c/:conversationId/messages', () => {
  it('pages newest first by seq, each message as sync_conversation reads it, cursors both ways', async () => {
    const { ann, annTab, conversation } = await twoPeople(5);
    const synced = await emitWithAck<Ack<ConversationSyncResult>>(annTab, 'sync_conversation', { conversation_id: conversation, after: 0 });
    if (!('data' in synced)) throw new Error(JSON.stringify(synced));

    const first = await thread(ann, conversation, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.results).toEqual([synced.data.messages[4], synced.data.messages[3]]);
    expect(first.body.newer_cursor).toBeNull();
    // Where the page stands: sync_conversation from last_seq misses nothing; Ann has read only
    // her own first message (nothing had come to her before it), none of Ben's.
    expect(first.body).toMatchObject({ last_seq: 5, read_seq: 1 });
    const second = await thread(ann, conversation, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.results.map((message) => message.seq)).toEqual([3, 2]);
    const last = await thread(ann, conversation, `?limit=2&cursor=${second.body.next_cursor}`);
    expect(last.body).toMatchObject({ results: [expect.objectContaining({ seq: 1, text: 'm1' })], next_cursor: null });
  });

  it('centres a page on a message, and goes on newer from there', async () => {
    const { ben, sent, conversation } = await twoPeople(6);
    const around = await thread(ben, conversation, `?limit=3&around=${sent[2]!.id}`);
    expect(around.body.results.map((message) => message.text)).toEqual(['m4', 'm3', 'm2']);
    const newer = await thread(ben, conversation, `?limit=3&cursor=${around.body.newer_cursor}`);
    expect(newer.body.results.map((message) => message.text)).toEqual(['m6', 'm5']);
    expect(newer.body.newer_cursor).toBeNull();
    // With room for the message only, whether newer ones exist is still a cursor.
    const alone = await thread(ben, conversation, `?limit=1&around=${sent[5]!.id}`);
    expect(alone.body).toMatchObject({ results: [expect.objectContaining({ text: 'm6' })], newer_cursor: null });
    expect((await thread(ben, conversation, `?limit=1&around=${sent[4]!.id}`)).body.newer_cursor).not.toBeNull();
  });

  it('leaves out what the caller deleted for themselves, and shows the receipts the caller may see', async () => {
    const { ann, ben, annTab, benTab, sent, conversation } = await twoPeople(3);
    expect(await emitWithAck(annTab, 'hide', { message_id: sent[1]!.id })).toMatchObject({ data: {} });
    expect((await thread(ann, conversation)).body.results.map((message) => message.text)).toEqual(['m3', 'm1']);
    expect((await thread(ben, conversation)).body.results.map((message) => message.text)).toEqual(['m3', 'm2', 'm1']);

    expect((await thread(ann, conversation)).body.seen).toEqual([]);
    await emitWithAck(benTab, 'read', { conversation_id: conversation });
    expect((await thread(ann, conversation)).body.seen).toEqual([{ user_id: ben.user.id, seq: 3, read_at: expect.any(String) }]);
    expect((await thread(ben, conversation)).body).toMatchObject({ read_seq: 3, last_seq: 3 });
    // Receipts off on either side: nothing to see.
    await api(t.url, '/accounts/settings', { method: 'PATCH', token: ann.bearer, json: { read_receipts: false } });
    expect((await thread(ann, conversation)).body.seen).toEqual([]);
  });

  it('answers someone else’s conversation, and a message outside the caller’s, as missing ones', async () => {
    const { ann, conversation, sent } = await twoPeople(2);
    const other = await twoPeople(1);
    const notFound = { status: 404, body: { msg: 'Conversation not found.' } };
    expect(await thread(ann, other.conversation)).toMatchObject(notFound);
    expect(await thread(ann, 9_000_000_000)).toMatchObject(notFound);
    expect(await thread(ann, conversation, `?around=${other.sent[0]!.id}`)).toMatchObject({ status: 404, body: { msg: 'Message not found.' } });
    expect(await thread(other.ann, conversation, `?around=${sent[0]!.id}`)).toMatchObject(notFound);
    for (const bad of ['/c/0/messages', '/c/abc/messages', '/c/1.5/messages', `/c/${conversation}/messages?cursor=nope`, `/c/${conversation}/messages?limit=101`]) {
      expect((await api(t.url, bad, { token: ann.bearer })).status).toBe(400);
    }
  });
});
