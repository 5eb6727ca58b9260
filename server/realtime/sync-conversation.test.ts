// Socket protocol 2's catch-up through a real server and sockets (docs/API.md; docs/design/
// conversations.md 3.5): `sync_account` answers the account's own items and which conversations
// moved since a cursor, and `sync_conversation` reads one conversation's stream by its own seqs,
// as every member sees it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountSyncResult, Ack, ChangeResult, ConversationSyncResult, MessagePayload } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, type ClientSocket } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());

async function send(socket: ClientSocket, to: SignedInUser, text: string): Promise<MessagePayload> {
  const ack = await emitWithAck<Ack<MessagePayload>>(socket, 'send', { client_id: randomUUID(), recipient_id: to.user.id, text });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}

async function change(socket: ClientSocket, event: 'react' | 'edit' | 'unsend' | 'hide', payload: object): Promise<void> {
  const ack = await emitWithAck<Ack<ChangeResult>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(`${event}: ${JSON.stringify(ack)}`);
}

const syncConversation = (socket: ClientSocket, payload: unknown) => emitWithAck<Ack<ConversationSyncResult>>(socket, 'sync_conversation', payload);

async function page(socket: ClientSocket, payload: unknown): Promise<ConversationSyncResult> {
  const ack = await syncConversation(socket, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}

async function account(socket: ClientSocket, payload: unknown): Promise<AccountSyncResult> {
  const ack = await emitWithAck<Ack<AccountSyncResult>>(socket, 'sync_account', payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}

describe('sync_conversation', () => {
  it('answers both members the same messages and changes by the conversation’s seqs, with the cursor', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const first = await send(annTab, ben, 'first'); // seq 1
    const second = await send(benTab, ann, 'second'); // seq 2
    await change(benTab, 'react', { message_id: first.id, emoji: '👍', add: true }); // seq 3
    await change(annTab, 'edit', { message_id: first.id, text: 'first, edited' }); // seq 4
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);

    const forAnn = await page(annTab, { conversation_id: conversation, after: 0 });
    const forBen = await page(benTab, { conversation_id: conversation, after: 0 });
    expect(forBen).toEqual(forAnn);
    expect(forAnn).toEqual({
      conversation_id: conversation,
      messages: [
        {
          id: first.id,
          conversation_id: conversation,
          seq: 1,
          version: 4,
          client_id: first.client_id,
          sender_id: ann.user.id,
          text: 'first, edited',
          attachment: null,
          attachment_removed: false,
          created_at: first.created_at,
          edited_at: expect.any(String),
          deleted: false,
          reactions: [{ emoji: '👍', user_ids: [ben.user.id] }],
          reply_to: null,
        },
        expect.objectContaining({ id: second.id, seq: 2, version: 2, sender_id: ben.user.id, text: 'second' }),
      ],
      changes: [
        { conversation_id: conversation, seq: 3, message_id: first.id, actor_id: ben.user.id, kind: 'reaction', reactions: [{ emoji: '👍', user_ids: [ben.user.id] }] },
        { conversation_id: conversation, seq: 4, message_id: first.id, actor_id: ann.user.id, kind: 'edit', text: 'first, edited', edited_at: forAnn.messages[0]!.edited_at },
      ],
      through: 4,
      last_seq: 4,
      has_more: false,
      seen: [],
    });

    // From a cursor: only what came after it; at the end, nothing and the same cursor.
    expect(await page(annTab, { conversation_id: conversation, after: 2 })).toMatchObject({ messages: [], changes: [{ seq: 3 }, { seq: 4 }], through: 4 });
    expect(await page(annTab, { conversation_id: conversation, after: 4 })).toMatchObject({ messages: [], changes: [], through: 4, last_seq: 4, has_more: false });
  });

  it('says where the other member has read, as thread pages do: a receipt missed while away comes back with the catch-up', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await send(annTab, ben, 'one');
    await send(annTab, ben, 'two');
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    expect((await page(annTab, { conversation_id: conversation, after: 2 })).seen).toEqual([]);
    await emitWithAck(benTab, 'read', { conversation_id: conversation });
    // Nothing new in the stream (a read moves no seq), and still the receipt: Ben read up to seq 2.
    expect(await page(annTab, { conversation_id: conversation, after: 2 })).toMatchObject({ messages: [], changes: [], seen: [{ user_id: ben.user.id, seq: 2, read_at: expect.any(String) }] });
    // Ben's own position is not a receipt for him.
    expect((await page(benTab, { conversation_id: conversation, after: 2 })).seen).toEqual([]);
    // Receipts off: nothing to see.
    await api(t.url, '/accounts/settings', { method: 'PATCH', token: ben.bearer, json: { read_receipts: false } });
    expect((await page(annTab, { conversation_id: conversation, after: 2 })).seen).toEqual([]);
  });

  it('pages a long conversation in order without gaps or repeats', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    for (let i = 1; i <= 12; i++) await send(i % 3 === 0 ? benTab : annTab, i % 3 === 0 ? ann : ben, `m${i}`);
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    const seen: number[] = [];
    let after = 0;
    for (let pages = 0; pages < 10; pages++) {
      const next = await page(benTab, { conversation_id: conversation, after, limit: 5 });
      seen.push(...next.messages.map((message) => message.seq));
      after = next.through;
      if (!next.has_more) break;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(after).toBe(12);
  });

  it('leaves out what the caller deleted for themselves, and changes to it, while its seqs stay accounted for', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const hidden = await send(annTab, ben, 'hide me'); // seq 1
    await change(benTab, 'hide', { message_id: hidden.id }); // Ben's own stream, no conversation seq
    await change(annTab, 'edit', { message_id: hidden.id, text: 'edited after' }); // seq 2
    await send(annTab, ben, 'kept'); // seq 3
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);

    const forBen = await page(benTab, { conversation_id: conversation, after: 0, limit: 1 });
    expect(forBen).toMatchObject({ messages: [{ seq: 3, text: 'kept' }], changes: [], through: 3, last_seq: 3, has_more: false });
    // Ann still sees hers and its edit.
    expect(await page(annTab, { conversation_id: conversation, after: 0 })).toMatchObject({
      messages: [{ seq: 1, text: 'edited after' }, { seq: 3 }],
      changes: [{ seq: 2, kind: 'edit' }],
    });
  });

  it('refuses a conversation the caller is not in exactly like one that does not exist, and bad cursors', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(cat)]);
    await send(annTab, ben, 'private');
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    const notFound = { error: { non_field_errors: ['conversation_id: Conversation not found.'] } };
    expect(await syncConversation(catTab, { conversation_id: conversation, after: 0 })).toEqual(notFound);
    expect(await syncConversation(catTab, { conversation_id: 9_000_000_000, after: 0 })).toEqual(notFound);
    const bad = [{ after: -1 }, { after: 1.5 }, { after: '3' }, {}, { after: 0, limit: 0 }, { after: 0, limit: 501 }, { after: 0, user_id: ben.user.id }].map((rest) => ({ conversation_id: conversation, ...rest }));
    for (const payload of [...bad, { conversation_id: 0, after: 0 }, { after: 0 }, null]) {
      expect(await syncConversation(annTab, payload)).toEqual({ error: { non_field_errors: expect.any(Array) } });
    }
  });
});

describe('sync_account', () => {
  it('hands out a cursor from now, then names the conversations that moved since, which sync_conversation then reads', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await send(benTab, ann, 'before');
    const start = await account(annTab, {});
    expect(start).toEqual({ items: [], conversations: [], removed: [], cursor: expect.stringMatching(/^\d+\.\d+\.0\.0$/), has_more: false });

    const sent = await send(benTab, ann, 'while away');
    const moved = await account(annTab, { cursor: start.cursor });
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    expect(moved).toMatchObject({
      items: [],
      conversations: [{ conversation_id: conversation, kind: 'direct', user: { id: ben.user.id }, last_seq: 2, read_seq: 0, unread_count: 2, last_message: { id: sent.id, seq: 2 } }],
      has_more: false,
    });
    expect(await page(annTab, { conversation_id: conversation, after: 1 })).toMatchObject({ messages: [{ id: sent.id, text: 'while away' }], through: 2 });
    expect(await account(annTab, { cursor: moved.cursor })).toMatchObject({ items: [], conversations: [], removed: [] });
  });

  it('brings a tab back from away everything of its account’s, every conversation and both directions, each numbered on its own, and nothing of anyone else’s', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    const away = await account(annTab, {});
    await send(annTab, ben, 'a1');
    await send(benTab, ann, 'b1');
    await send(catTab, ben, 'not Ann’s');
    await send(catTab, ann, 'c1');
    const [withBen, withCat] = await Promise.all([directConversationId(t.db, ann.user.id, ben.user.id), directConversationId(t.db, ann.user.id, cat.user.id)]);

    const moved = await account(annTab, { cursor: away.cursor });
    expect(moved.conversations.map((row) => row.conversation_id).sort((a, b) => a - b)).toEqual([withBen, withCat].sort((a, b) => a - b));
    expect(moved.removed).toEqual([]);
    const read = async (conversation: number) => (await page(annTab, { conversation_id: conversation, after: 0 })).messages.map((message) => [message.seq, message.text]);
    expect(await read(withBen)).toEqual([
      [1, 'a1'],
      [2, 'b1'],
    ]);
    expect(await read(withCat)).toEqual([[1, 'c1']]);
  });

  it('pages the account’s own items by its limit, in seq order without gaps or repeats', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const start = await account(annTab, {});
    const [first, second, third] = [await send(benTab, ann, 'one'), await send(benTab, ann, 'two'), await send(benTab, ann, 'three')];
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    // Five items of Ann's own: three reads (each further), a mute and a deletion for herself.
    for (const upTo of [first.id, second.id, undefined]) expect(await emitWithAck(annTab, 'read', { conversation_id: conversation, up_to: upTo })).toMatchObject({ data: {} });
    expect((await api(t.url, `/c/${conversation}`, { method: 'PATCH', token: ann.bearer, json: { muted: true } })).status).toBe(200);
    await change(annTab, 'hide', { message_id: third.id });

    const pages: AccountSyncResult[] = [];
    let cursor = start.cursor;
    for (let asked = 0; asked < 10; asked++) {
      const next = await account(annTab, { cursor, limit: 2 });
      pages.push(next);
      cursor = next.cursor;
      if (!next.has_more) break;
    }
    expect(pages.map((next) => [next.items.map((item) => item.seq), next.has_more])).toEqual([
      [[1, 2], true],
      [[3, 4], true],
      [[5], false],
    ]);
    expect(pages.flatMap((next) => next.items.map((item) => item.kind))).toEqual(['read', 'read', 'read', 'muted', 'hide']);
    // The conversation that moved is named with the first page, and not again for its items.
    expect(pages.map((next) => next.conversations.map((row) => row.conversation_id))).toEqual([[conversation], [], []]);
    expect(await account(annTab, { cursor })).toMatchObject({ items: [], conversations: [], has_more: false });
  });

  it('refuses cursors it did not give, limits out of range and fields it does not know with a field error', async () => {
    const ann = await signIn(t.url, 'Ann');
    const socket = await tabs.open(ann);
    const { cursor: given } = await account(socket, {});
    const bad = ['', '1.2.3', '01.2.3.0', '1.18446744073709551616.0.0', '1.2.3.18446744073709551616', '9007199254740992.1.0.0', 5].map((cursor) => ({ cursor }));
    for (const payload of [...bad, { cursor: given, limit: 0 }, { cursor: given, limit: 501 }, { cursor: given, limit: 1.5 }, { cursor: given, user_id: ann.user.id }, null]) {
      expect(await emitWithAck(socket, 'sync_account', payload)).toEqual({ error: { non_field_errors: expect.any(Array) } });
    }
  });
});
