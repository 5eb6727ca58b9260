import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Ack, ChangeResult, MessageSearchResult, Page } from '../../lib/contract';
import { MESSAGE_SEARCH_MAX_QUERY, MESSAGE_SEARCH_PAGE_SIZE } from '../../lib/contract';
import { directConversationId, insertMessage } from '../../testing/database';
import { highlightRanges } from '../db/message-search';
import { conversations } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());

const store = async (from: SignedInUser, to: SignedInUser, text: string) =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;
const search = (viewer: SignedInUser, query: string) =>
  api<Page<MessageSearchResult>>(t.url, `/messages/search?${query}`, { token: viewer.bearer });
const texts = (page: Page<MessageSearchResult>) => page.results.map((result) => result.message.text);

describe('GET /api/messages/search', () => {
  it('finds the caller’s messages by word starts, any case, newest first, with the other person and ranges', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    await store(ann, ben, 'Pizzeria tonight?');
    await store(ben, ann, 'Une pizza, oui');
    await store(cat, ann, 'PIZZA for everyone');
    await store(ben, cat, 'pizza without Ann'); // not hers
    await store(ann, ben, 'spizza is not a word start');
    const page = await search(ann, 'q=Pizz');
    expect(page.status).toBe(200);
    expect(texts(page.body)).toEqual(['PIZZA for everyone', 'Une pizza, oui', 'Pizzeria tonight?']);
    expect(page.body.results[0]).toMatchObject({ user: { id: cat.user.id, username: 'Cat' }, highlights: [{ start: 0, end: 4 }] });
    // Each result names its conversation.
    expect(page.body.results[0]!.conversation_id).toBe(await directConversationId(t.db, ann.user.id, cat.user.id));
    expect(page.body.results[1]).toMatchObject({ user: { id: ben.user.id }, highlights: [{ start: 4, end: 8 }], message: { sender_id: ben.user.id } });
    // The message as every member of its conversation sees it: its seq there, no one's read state.
    const benConversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    expect(page.body.results[1]!.message).toMatchObject({ conversation_id: benConversation, seq: 2, version: 2 });
    expect(page.body.results[1]!.message).not.toHaveProperty('read_at');
    expect(page.body.results[1]!.message).not.toHaveProperty('recipient_id');
    // Every word must match.
    expect(texts((await search(ann, 'q=pizza%20oui')).body)).toEqual(['Une pizza, oui']);
    expect(texts((await search(ben, 'q=une')).body)).toEqual(['Une pizza, oui']);
  });

  it('matches edited messages by their current text, never unsent ones or ones hidden for the caller', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const edited = await store(ann, ben, 'meet at the harbour');
    const unsent = await store(ann, ben, 'harbour secret');
    const hidden = await store(ben, ann, 'harbour hidden');
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const change = async (tab: typeof annTab, event: string, payload: object) =>
      expect(await emitWithAck<Ack<ChangeResult>>(tab, event, payload)).toHaveProperty('data');
    await change(annTab, 'edit', { message_id: edited.id, text: 'meet at the station' });
    await change(annTab, 'unsend', { message_id: unsent.id });
    await change(annTab, 'hide', { message_id: hidden.id });
    expect(texts((await search(ann, 'q=harbour')).body)).toEqual([]);
    expect(texts((await search(ann, 'q=station')).body)).toEqual(['meet at the station']);
    // Ben did not hide his: he still finds it; the unsent one is gone for both.
    expect(texts((await search(ben, 'q=harbour')).body)).toEqual(['harbour hidden']);
    await change(benTab, 'react', { message_id: edited.id, emoji: '👍', add: true });
  });

  it('pages by cursor without gaps, and leaves out people whose accounts are deactivated', async () => {
    const [ann, ben, dan] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Dan')]);
    const sent = [];
    for (let i = 0; i < MESSAGE_SEARCH_PAGE_SIZE + 5; i++) sent.push(await store(ann, ben, `lighthouse ${i}`));
    await store(dan, ann, 'lighthouse from Dan');
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: dan.bearer })).status).toBe(204);
    const first = await search(ann, 'q=lighthouse');
    expect(first.body.results).toHaveLength(MESSAGE_SEARCH_PAGE_SIZE);
    const second = await search(ann, `q=lighthouse&cursor=${first.body.next_cursor}`);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.results, ...second.body.results].map((r) => r.message.id)).toEqual(sent.map((m) => m.id).reverse());
  });

  it('finds messages by the caller’s memberships alone, with no pair rows (the next release writes none)', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    await store(ann, ben, 'quokka spotted');
    await t.db.delete(conversations).where(inArray(conversations.userId, [ann.user.id, ben.user.id]));
    const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
    for (const [viewer, other] of [[ann, ben], [ben, ann]] as const) {
      const page = await search(viewer, 'q=quokka');
      expect(page.body.results).toMatchObject([{ conversation_id: conversation, user: { id: other.user.id }, message: { text: 'quokka spotted', seq: 1 } }]);
    }
  });

  it('refuses an empty, blank, wordless or too long query and a foreign cursor with a field error', async () => {
    const ann = await signIn(t.url, 'Ann');
    for (const [query, field] of [
      ['', 'q'],
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      ['q=%3F%21', 'q'],
      [`q=${'a'.repeat(MESSAGE_SEARCH_MAX_QUERY + 1)}`, 'q'],
      [`q=a&cursor=${Buffer.from(JSON.stringify(['m', 5])).toString('base64url')}`, 'cursor'],
    ] as const) {
      const response = await search(ann, query);
      expect(response, query).toMatchObject({ status: 400, body: { non_field_errors: [expect.stringMatching(new RegExp(`^${field}: `))] } });
    }
    expect((await api(t.url, '/messages/search?q=a')).status).toBe(401);
  });
});

describe('highlightRanges', () => {
  // The database folds in the product (searchText); case is enough to show how ranges are cut.
  const fold = (value: string) => value.toLowerCase();
  it('marks the start of each word whose folded form begins with a query word’s, as long as the word typed, in string offsets', () => {
    expect(highlightRanges('Café café CAFETERIA', ['CAF'], fold)).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 8 },
      { start: 10, end: 13 },
    ]);
    expect(highlightRanges('👍 pizza!', ['pizza'], fold)).toEqual([{ start: 3, end: 8 }]);
    expect(highlightRanges('nothing here', ['pizza'], fold)).toEqual([]);
    // The longest word that matches; never past the end of the text's word.
    expect(highlightRanges('pizzeria', ['pi', 'pizz', 'pizzerias'], fold)).toEqual([{ start: 0, end: 4 }]);
    expect(highlightRanges('Straße', ['strasse'], () => 'strasse')).toEqual([{ start: 0, end: 6 }]);
  });
});
