import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_PAGE_SIZE, type Conversation, type MessagePayload, type Page } from '../../lib/contract';
import { insertMessage, readConversation } from '../../testing/database';
import { setUserActive, upsertUserFromFirebase } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';

let t: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
let carol: SignedInUser;
beforeAll(async () => {
  t = await startTestServer();
  [alice, bob, carol] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob'), signIn(t.url, 'Carol')]);
});
afterAll(() => t.close());

/** null: no Authorization header at all. */
const get = <T>(route: string, token: string | null = alice.bearer) => api<T>(t.url, route, { token: token ?? undefined });
const dbUser = (username: string) =>
  upsertUserFromFirebase(t.db, { firebaseUid: randomUUID(), username, email: null, avatar: null, socialType: 'google' });
const send = async (from: number, to: number, text = 'hi') =>
  (await insertMessage(t.db, { senderId: from, recipientId: to, clientId: randomUUID(), text })).message;

async function readThread(token: string, peerId: number, limit?: number): Promise<{ ids: number[]; sizes: number[] }> {
  const ids: number[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...(cursor ? { cursor } : {}), ...(limit ? { limit: String(limit) } : {}) });
    const response: { status: number; body: Page<MessagePayload> } = await get(`/conversations/${peerId}/messages?${query}`, token);
    expect(response.status).toBe(200);
    ids.push(...response.body.results.map((m) => m.id));
    sizes.push(response.body.results.length);
    cursor = response.body.next_cursor;
  } while (cursor);
  return { ids, sizes };
}

describe('GET /api/conversations/:userId/messages', () => {
  it('pages 120 messages newest first in pages of 50, without gaps or duplicates', async () => {
    const [dan, eve] = await Promise.all([signIn(t.url, 'Dan'), signIn(t.url, 'Eve')]);
    const sent: MessagePayload[] = [];
    for (let i = 0; i < 120; i++) {
      sent.push(await send(i % 2 ? dan.user.id : eve.user.id, i % 2 ? eve.user.id : dan.user.id, `#${i}`));
    }
    const { ids, sizes } = await readThread(dan.bearer, eve.user.id);
    expect(sizes).toEqual([50, 50, 20]);
    expect(ids).toEqual(sent.map((m) => m.id).reverse());
    // Both sides see the same thread; limit changes only the page size.
    expect((await readThread(eve.bearer, dan.user.id, 100)).sizes).toEqual([100, 20]);
  });

  it('returns messages in the contract shape', async () => {
    const [gus, hal] = await Promise.all([signIn(t.url, 'Gus'), signIn(t.url, 'Hal')]);
    const message = await send(gus.user.id, hal.user.id, 'shape');
    const response = await get<Page<MessagePayload>>(`/conversations/${gus.user.id}/messages`, hal.bearer);
    expect(response.body).toEqual({
      results: [
        {
          id: message.id,
          client_id: message.client_id,
          sender_id: gus.user.id,
          recipient_id: hal.user.id,
          text: 'shape',
          attachment: null,
          attachment_removed: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          read_at: null,
          seq: 1,
          edited_at: null,
          deleted: false,
          reactions: [],
          version: 1,
          reply_to: null,
        },
      ],
      next_cursor: null,
    });
  });

  it("never shows a third person's conversation: C asking for A↔B gets only C's own with A", async () => {
    const ab = await send(alice.user.id, bob.user.id, 'secret a→b');
    const ba = await send(bob.user.id, alice.user.id, 'secret b→a');
    const ca = await send(carol.user.id, alice.user.id, 'c→a');
    const asCarol = (peer: number) => get<Page<MessagePayload>>(`/conversations/${peer}/messages`, carol.bearer);

    const withAlice = await asCarol(alice.user.id);
    expect(withAlice.body.results.map((m) => m.id)).toEqual([ca.id]);
    expect((await asCarol(bob.user.id)).body.results).toEqual([]);
    // A cursor does not widen the pair either.
    const cursor = Buffer.from(JSON.stringify(['m', ba.id + 1])).toString('base64url');
    const paged = await get<Page<MessagePayload>>(`/conversations/${bob.user.id}/messages?cursor=${cursor}`, carol.bearer);
    expect(paged.body.results).toEqual([]);
    const allCarolSees = JSON.stringify([withAlice.body, paged.body]);
    expect(allCarolSees).not.toContain(String(ab.client_id));
    expect(allCarolSees).not.toContain('secret');
  });

  it.each([
    ['limit 0', 'limit=0'],
    ['limit 101', 'limit=101'],
    ['a word for limit', 'limit=many'],
    ['a garbage cursor', 'cursor=%%%'],
    ["a conversation list's cursor", `cursor=${Buffer.from('["c",5]').toString('base64url')}`],
    ['a negative cursor id', `cursor=${Buffer.from('["m",-5]').toString('base64url')}`],
    ['a cursor id past 2^53', `cursor=${Buffer.from('["m",9007199254740993]').toString('base64url')}`],
    ['a fractional cursor id', `cursor=${Buffer.from('["m",1.5]').toString('base64url')}`],
  ])('400s %s', async (_label, query) => {
    const response = await get(`/conversations/${bob.user.id}/messages?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
  });

  it('400s a bad id and a conversation with yourself; 404s unknown and inactive users', async () => {
    expect((await get('/conversations/abc/messages')).status).toBe(400);
    expect((await get(`/conversations/${alice.user.id}/messages`)).status).toBe(400);
    const gone = await dbUser('gone');
    await setUserActive(t.db, gone.id, false);
    for (const id of [gone.id, 2_000_000_000]) {
      const response = await get(`/conversations/${id}/messages`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ msg: 'User not found.' });
    }
  });

  it('401s without a token', async () => {
    expect((await get(`/conversations/${bob.user.id}/messages`, null)).status).toBe(401);
  });

  it('accepts the largest cursor ids, in threads and in the conversation list', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const thread = await get(`/conversations/${bob.user.id}/messages?cursor=${Buffer.from(`["m",${max}]`).toString('base64url')}`);
    expect(thread.status).toBe(200);
    const list = await get(`/conversations?cursor=${Buffer.from(`["c",${max}]`).toString('base64url')}`);
    expect(list.status).toBe(200);
  });
});

describe('GET /api/conversations', () => {
  it('lists conversations newest first with the last message, the peer and unread counts', async () => {
    const [me, ann, ben] = await Promise.all([signIn(t.url, 'Me'), signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await send(ann.user.id, me.user.id, 'from ann 1');
    await send(ann.user.id, me.user.id, 'from ann 2');
    await send(ben.user.id, me.user.id, 'from ben');
    const reply = await send(me.user.id, ann.user.id, 'reply to ann');

    const response = await get<Page<Conversation>>('/conversations', me.bearer);
    expect(response.status).toBe(200);
    expect(response.body.next_cursor).toBeNull();
    expect(response.body.results.map((c) => [c.user.id, c.unread_count, c.last_message.text])).toEqual([
      [ann.user.id, 2, 'reply to ann'],
      [ben.user.id, 1, 'from ben'],
    ]);
    expect(response.body.results[0]).toEqual({
      user: { id: ann.user.id, username: 'Ann', avatar: expect.any(String), is_following: false, follows_you: false, deleted: false },
      last_message: reply,
      unread_count: 2,
      muted: false,
    });

    await readConversation(t.db, me.user.id, ann.user.id);
    const after = await get<Page<Conversation>>('/conversations', me.bearer);
    expect(after.body.results.map((c) => c.unread_count)).toEqual([0, 1]);
  });

  it('pages with a cursor', async () => {
    const me = await signIn(t.url, 'Popular');
    const peers: number[] = [];
    for (let i = 0; i < CONVERSATION_PAGE_SIZE + 2; i++) {
      const peer = await dbUser(`peer ${i}`);
      peers.push(peer.id);
      await send(peer.id, me.user.id);
    }
    const first = await get<Page<Conversation>>('/conversations', me.bearer);
    expect(first.body.results).toHaveLength(CONVERSATION_PAGE_SIZE);
    const second = await get<Page<Conversation>>(`/conversations?cursor=${first.body.next_cursor}`, me.bearer);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.results, ...second.body.results].map((c) => c.user.id)).toEqual(peers.reverse());
  });

  it('400s a bad cursor and 401s without a token', async () => {
    const bad = await get('/conversations?cursor=abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ non_field_errors: ['cursor: Invalid cursor.'] });
    expect((await get('/conversations', null)).status).toBe(401);
  });
});
