import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage, ConversationSummaryPage, ConversationThreadPage } from '../../lib/contract';
import { insertMessage, readConversation } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';

let t: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
let carol: SignedInUser;
/** Alice and Bob's conversation: their first message is Alice's. */
let aliceAndBob: number;
beforeAll(async () => {
  t = await startTestServer();
  [alice, bob, carol] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob'), signIn(t.url, 'Carol')]);
  aliceAndBob = (await send(alice.user.id, bob.user.id, 'secret a→b')).conversation_id;
});
afterAll(() => t.close());

/** null: no Authorization header at all. */
const get = <T>(route: string, token: string | null = alice.bearer) => api<T>(t.url, route, { token: token ?? undefined });
/** Stores a message; resolves with it as every member of its conversation sees it. */
const send = async (from: number, to: number, text = 'hi') =>
  (await insertMessage(t.db, { senderId: from, recipientId: to, clientId: randomUUID(), text })).message;

async function readThread(token: string, conversationId: number, limit?: number): Promise<{ ids: number[]; sizes: number[] }> {
  const ids: number[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...(cursor ? { cursor } : {}), ...(limit ? { limit: String(limit) } : {}) });
    const response: { status: number; body: ConversationThreadPage } = await get(`/c/${conversationId}/messages?${query}`, token);
    expect(response.status).toBe(200);
    ids.push(...response.body.results.map((m) => m.id));
    sizes.push(response.body.results.length);
    cursor = response.body.next_cursor;
  } while (cursor);
  return { ids, sizes };
}

describe('GET /api/c/:conversationId/messages', () => {
  it('pages 120 messages newest first in pages of 50, without gaps or duplicates', async () => {
    const [dan, eve] = await Promise.all([signIn(t.url, 'Dan'), signIn(t.url, 'Eve')]);
    const sent: ConversationMessage[] = [];
    for (let i = 0; i < 120; i++) {
      sent.push(await send(i % 2 ? dan.user.id : eve.user.id, i % 2 ? eve.user.id : dan.user.id, `#${i}`));
    }
    const conversation = sent[0]!.conversation_id;
    const { ids, sizes } = await readThread(dan.bearer, conversation);
    expect(sizes).toEqual([50, 50, 20]);
    expect(ids).toEqual(sent.map((m) => m.id).reverse());
    // Both sides see the same thread; limit changes only the page size.
    expect((await readThread(eve.bearer, conversation, 100)).sizes).toEqual([100, 20]);
  });

  it('returns messages in the contract shape', async () => {
    const [gus, hal] = await Promise.all([signIn(t.url, 'Gus'), signIn(t.url, 'Hal')]);
    const message = await send(gus.user.id, hal.user.id, 'shape');
    const response = await get<ConversationThreadPage>(`/c/${message.conversation_id}/messages`, hal.bearer);
    expect(response.body).toEqual({
      results: [
        {
          id: message.id,
          conversation_id: message.conversation_id,
          seq: 1,
          version: 1,
          client_id: message.client_id,
          sender_id: gus.user.id,
          text: 'shape',
          attachment: null,
          attachment_removed: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          edited_at: null,
          deleted: false,
          reactions: [],
          reply_to: null,
        },
      ],
      next_cursor: null,
      newer_cursor: null,
      seen: [],
      last_seq: 1,
      read_seq: 0,
    });
  });

  it("never shows a third person's conversation: C asking for A↔B's, by any way in, gets a missing one's 404", async () => {
    const ba = await send(bob.user.id, alice.user.id, 'secret b→a');
    const ca = await send(carol.user.id, alice.user.id, 'c→a');
    const asCarol = (conversation: number, query = '') => get<ConversationThreadPage>(`/c/${conversation}/messages${query}`, carol.bearer);

    expect((await asCarol(ca.conversation_id)).body.results.map((m) => m.id)).toEqual([ca.id]);
    // Neither a cursor nor a message of theirs to centre on widens what she may read.
    const cursor = Buffer.from(JSON.stringify(['o', ba.seq + 1])).toString('base64url');
    for (const query of ['', `?cursor=${cursor}`, `?around=${ba.id}`]) {
      const response = await asCarol(aliceAndBob, query);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ msg: 'Conversation not found.' });
    }
  });

  it.each([
    ['limit 0', 'limit=0'],
    ['limit 101', 'limit=101'],
    ['a word for limit', 'limit=many'],
    ['a garbage cursor', 'cursor=%%%'],
    ["a conversation list's cursor", `cursor=${Buffer.from('["c",5]').toString('base64url')}`],
    ['a negative cursor seq', `cursor=${Buffer.from('["o",-5]').toString('base64url')}`],
    ['a cursor seq past 2^53', `cursor=${Buffer.from('["o",9007199254740993]').toString('base64url')}`],
    ['a fractional cursor seq', `cursor=${Buffer.from('["w",1.5]').toString('base64url')}`],
  ])('400s %s', async (_label, query) => {
    const response = await get(`/c/${aliceAndBob}/messages?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
  });

  it('accepts the largest cursor seqs, both ways, and the largest cursor ids in the conversation list', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    for (const tag of ['o', 'w']) {
      const thread = await get(`/c/${aliceAndBob}/messages?cursor=${Buffer.from(`["${tag}",${max}]`).toString('base64url')}`);
      expect(thread.status).toBe(200);
    }
    const list = await get(`/c?cursor=${Buffer.from(`["c",${max}]`).toString('base64url')}`);
    expect(list.status).toBe(200);
  });
});

describe('GET /api/c', () => {
  it('lists conversations newest first with the last message, the peer and unread counts', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await send(ann.user.id, me.user.id, 'from ann 1');
    await send(ann.user.id, me.user.id, 'from ann 2');
    await send(ben.user.id, me.user.id, 'from ben');
    const reply = await send(me.user.id, ann.user.id, 'reply to ann');

    const response = await get<ConversationSummaryPage>('/c', me.bearer);
    expect(response.status).toBe(200);
    expect(response.body.next_cursor).toBeNull();
    expect(response.body.results.map((c) => [c.user?.id, c.unread_count, c.last_message?.text])).toEqual([
      [ann.user.id, 2, 'reply to ann'],
      [ben.user.id, 1, 'from ben'],
    ]);
    expect(response.body.results[0]).toEqual({
      conversation_id: reply.conversation_id,
      kind: 'direct',
      user: { id: ann.user.id, username: 'Ann', avatar: expect.any(String), is_following: false, follows_you: false, deleted: false },
      last_seq: 3,
      last_message: reply,
      read_seq: 0,
      unread_count: 2,
      muted: false,
      left: false,
    });

    await readConversation(t.db, me.user.id, ann.user.id);
    const after = await get<ConversationSummaryPage>('/c', me.bearer);
    expect(after.body.results.map((c) => c.unread_count)).toEqual([0, 1]);
  });
});
