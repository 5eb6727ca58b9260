// GET /api/c: the account's list, by conversation, newest first, each row as sync_account reports
// it, in pages, with the sync_account cursor read before the page.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_PAGE_SIZE, type Ack, type AccountSyncResult, type ConversationSummaryPage } from '../../lib/contract';
import { directConversationId, insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, sendAccepted } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

const list = (user: SignedInUser, query = '') => api<ConversationSummaryPage>(t.url, `/c${query}`, { token: user.bearer });

describe('GET /api/c', () => {
  it('lists the account’s conversations newest first, with the person, badge, mute and last message, each row as sync_account reports it', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    await sendAccepted(benTab, ann.user.id, 'from ben');
    await sendAccepted(catTab, ann.user.id, 'from cat');
    await sendAccepted(catTab, ann.user.id, 'cat again');
    await sendAccepted(annTab, ben.user.id, 'to ben');
    await api(t.url, `/conversations/${cat.user.id}`, { method: 'PATCH', token: ann.bearer, json: { muted: true } });
    const [withBen, withCat] = await Promise.all([directConversationId(t.db, ann.user.id, ben.user.id), directConversationId(t.db, ann.user.id, cat.user.id)]);

    const page = await list(ann);
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toBeNull();
    expect(page.body.results.map((row) => [row.user?.id, row.unread_count, row.muted, row.last_message?.text])).toEqual([
      [ben.user.id, 1, false, 'to ben'],
      [cat.user.id, 2, true, 'cat again'],
    ]);
    expect(page.body.results.map((row) => row.conversation_id)).toEqual([withBen, withCat]);
    expect(page.body.results[0]).toMatchObject({ kind: 'direct', last_seq: 2, read_seq: 0, unread_count: 1, left: false, last_message: { conversation_id: withBen, seq: 2 } });

    // The same rows sync_account reports for a cursor from before them.
    const fresh = await signIn(t.url, 'Dee');
    const deeTab = await tabs.open(fresh);
    const cursor = (await list(fresh)).body.account_cursor;
    await sendAccepted(catTab, fresh.user.id, 'hello dee');
    const synced = await emitWithAck<Ack<AccountSyncResult>>(deeTab, 'sync_account', { cursor });
    if (!('data' in synced)) throw new Error(JSON.stringify(synced));
    expect((await list(fresh)).body.results).toEqual(synced.data.conversations);
  });

  it('leaves out conversations the account blocked or deleted every message of, and those with a deactivated person', async () => {
    const [kim, lou, max, ned] = await Promise.all([signIn(t.url, 'Kim'), signIn(t.url, 'Lou'), signIn(t.url, 'Max'), signIn(t.url, 'Ned')]);
    const [kimTab, louTab, maxTab, nedTab] = await Promise.all([tabs.open(kim), tabs.open(lou), tabs.open(max), tabs.open(ned)]);
    const fromLou = await sendAccepted(louTab, kim.user.id, 'lou');
    await sendAccepted(maxTab, kim.user.id, 'max');
    await sendAccepted(nedTab, kim.user.id, 'ned');
    expect(await emitWithAck(kimTab, 'hide', { message_id: fromLou.id })).toMatchObject({ data: {} });
    expect((await list(kim)).body.results.map((row) => row.user?.id)).toEqual([ned.user.id, max.user.id]);
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: ned.bearer })).status).toBe(204);
    expect((await list(kim)).body.results.map((row) => row.user?.id)).toEqual([max.user.id]);
    await api(t.url, `/users/${max.user.id}/block`, { method: 'PUT', token: kim.bearer });
    expect((await list(kim)).body.results).toEqual([]);
  });

  it('pages newest first with the cursor, and misses nothing stored after the page’s account cursor', async () => {
    const me = await signIn(t.url, 'Pager');
    const others = await Promise.all(Array.from({ length: CONVERSATION_PAGE_SIZE + 2 }, (_, i) => signIn(t.url, `P${i}`)));
    for (const other of others) await insertMessage(t.db, { senderId: other.user.id, recipientId: me.user.id, clientId: randomUUID(), text: `hi from ${other.user.id}` });

    const first = await list(me);
    expect(first.body.results).toHaveLength(CONVERSATION_PAGE_SIZE);
    const second = await list(me, `?cursor=${first.body.next_cursor}`);
    expect(second.body.next_cursor).toBeNull();
    const senders = [...first.body.results, ...second.body.results].map((row) => row.user?.id);
    expect(senders).toEqual(others.map((other) => other.user.id).reverse());

    const tab = await tabs.open(me);
    await insertMessage(t.db, { senderId: others[0]!.user.id, recipientId: me.user.id, clientId: randomUUID(), text: 'after the page' });
    const synced = await emitWithAck<Ack<AccountSyncResult>>(tab, 'sync_account', { cursor: first.body.account_cursor });
    expect(synced).toMatchObject({ data: { conversations: [{ user: { id: others[0]!.user.id }, last_message: { text: 'after the page' } }] } });
  });

  it('refuses a bad cursor and a caller without a session', async () => {
    const me = await signIn(t.url, 'Strict');
    expect(await list(me, '?cursor=nope')).toMatchObject({ status: 400, body: { non_field_errors: ['cursor: Invalid cursor.'] } });
    expect((await api(t.url, '/c', {})).status).toBe(401);
  });
});
