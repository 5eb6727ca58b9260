import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Ack, FollowedPayload } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { messages } from '../db/schema';
import { startConfiguredServer } from '../test/configured-server';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { connectSocket, emitWithAck, nextEvent, send } from '../test/socket-client';
import { MAX_REFUSED_IN_A_ROW } from '../realtime/socket-rate-limit';
import { serverWithTabs } from '../test/tabs';
import { filesIn, pngBytes, rawUpload } from '../test/uploads';

// So slow a refill that nothing comes back during a test: the burst is all there is.
const HOURLY = 1 / 3600;
const { t, tabs } = serverWithTabs(() => startConfiguredServer({
  config: {
    rateLimits: {
      send: { perSecond: HOURLY, burst: 3 },
      follow: { perSecond: HOURLY, burst: 2 },
      search: { perSecond: HOURLY, burst: 2 },
      upload: { perSecond: HOURLY, burst: 1 },
      export: { perSecond: HOURLY, burst: 1 },
      page: { perSecond: HOURLY, burst: 3 },
      typing: { perSecond: HOURLY, burst: 2 },
      presence: { perSecond: HOURLY, burst: 1 },
      connect: { perSecond: HOURLY, burst: 3 },
      sync: { perSecond: HOURLY, burst: 6 },
    },
  },
}));

const TOO_MANY = /^Too many requests\. Try again in (\d+) s\.$/;
/** The N of "Try again in N s.": a whole number of seconds, no more than the hour a token takes. */
function waitIn(msg: unknown): number {
  const seconds = Number(TOO_MANY.exec(String(msg))?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(3600);
  return seconds;
}

describe('socket rate limits', () => {
  it('refuses a send over the limit with a transient {msg} error ack, across all of the user’s tabs', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const [tab1, tab2, bobTab] = await Promise.all([tabs.open(alice), tabs.open(alice), tabs.open(bob)]);
    for (const [tab, text] of [[tab1, 'one'], [tab2, 'two'], [tab1, 'three']] as const) {
      expect(await send(tab, bob.user.id, text)).toMatchObject({ data: { text } });
    }
    const refused = await send(tab2, bob.user.id, 'four');
    expect(refused).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    // Refused before the handler: nothing stored. Other people keep their own budget.
    const stored = await t.db.select().from(messages).where(eq(messages.senderId, alice.user.id));
    expect(stored.map((m) => m.text).sort()).toEqual(['one', 'three', 'two']);
    expect(await send(bobTab, alice.user.id, 'bob is fine')).toMatchObject({ data: { text: 'bob is fine' } });
  });

  it('refuses typing and presence_subscribe over their limits the same way', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const tab = await tabs.open(alice);
    for (let i = 0; i < 2; i += 1) expect(await emitWithAck(tab, 'typing', { user_id: bob.user.id, typing: true })).toEqual({ data: {} });
    const typing = await emitWithAck<Ack<unknown>>(tab, 'typing', { user_id: bob.user.id, typing: false });
    expect(typing).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    expect(await emitWithAck(tab, 'presence_subscribe', { user_ids: [bob.user.id] })).toEqual({ data: { presence: [] } });
    const presence = await emitWithAck<Ack<unknown>>(tab, 'presence_subscribe', { user_ids: [] });
    expect(presence).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    waitIn('error' in presence && 'msg' in presence.error ? presence.error.msg : '');
  });

  it('refuses a follow over the limit the same way', async () => {
    const [fan, a, b, c] = await Promise.all([signIn(t.url, 'Fan'), signIn(t.url, 'A'), signIn(t.url, 'B'), signIn(t.url, 'C')]);
    const tab = await tabs.open(fan);
    const follow = (star: SignedInUser) =>
      emitWithAck<Ack<FollowedPayload>>(tab, 'follow', { user_id: star.user.id, follow: true });
    expect(await follow(a)).toMatchObject({ data: { following: true } });
    expect(await follow(b)).toMatchObject({ data: { following: true } });
    const refused = await follow(c);
    expect(refused).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    const profile = await api<{ followers_count: number }>(t.url, `/users/${c.user.id}`, { token: fan.bearer });
    expect(profile.body.followers_count).toBe(0);
  });
});

describe('what a flood of one account costs it', () => {
  it('closes a socket that keeps sending past its limit, and not before', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const tab = await tabs.open(alice);
    const typing = () => emitWithAck<Ack<unknown>>(tab, 'typing', { user_id: bob.user.id, typing: true });
    for (let i = 0; i < 2; i += 1) expect(await typing()).toEqual({ data: {} });
    for (let i = 1; i < MAX_REFUSED_IN_A_ROW; i += 1) expect(await typing()).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    expect(tab.connected).toBe(true);
    const closed = nextEvent<string>(tab, 'disconnect');
    expect(await typing()).toEqual({ error: { msg: expect.stringMatching(TOO_MANY) } });
    expect(await closed).toBe('io server disconnect');
  });

  it('prices a catch-up page by the reads its limit allows: up to 250 items three, up to 100 one, the largest five', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const [aliceTab, bobTab] = await Promise.all([tabs.open(alice), tabs.open(bob)]);
    const sync = (tab: typeof aliceTab, payload: object) => emitWithAck<Ack<unknown>>(tab, 'sync_account', payload);
    const TOO_MANY_ACK = { error: { msg: expect.stringMatching(TOO_MANY) } };
    // Pages of more than one read come out of the burst (five here; its steady window holds one).
    expect(await sync(aliceTab, { limit: 250 })).toMatchObject({ data: { items: [] } });
    for (let i = 0; i < 2; i += 1) expect(await sync(aliceTab, { limit: 100 })).toMatchObject({ data: { items: [] } });
    expect(await sync(aliceTab, { limit: 1 })).toEqual(TOO_MANY_ACK);
    expect(await sync(bobTab, {})).toMatchObject({ data: { items: [] } });
    expect(await sync(bobTab, { limit: 100 })).toEqual(TOO_MANY_ACK);
  });

  it('prices every socket opened: past the account’s budget a handshake is refused, other people still connect', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    for (let i = 0; i < 3; i += 1) (await connectSocket(t.url, alice.bearer)).close();
    await expect(connectSocket(t.url, alice.bearer)).rejects.toThrow(TOO_MANY);
    expect((await tabs.open(bob)).connected).toBe(true);
  });
});

describe('HTTP rate limits', () => {
  it('answers a search over the limit with 429 {msg} and Retry-After', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Searcher'), signIn(t.url, 'Other')]);
    const search = (user: SignedInUser) => api<{ msg?: string }>(t.url, '/users/search?q=a', { token: user.bearer });
    expect((await search(alice)).status).toBe(200);
    expect((await search(alice)).status).toBe(200);
    const refused = await search(alice);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ msg: expect.stringMatching(TOO_MANY) });
    expect(refused.headers.get('retry-after')).toBe(String(waitIn(refused.body.msg)));
    expect((await search(bob)).status).toBe(200);
  });

  it('holds the data export to its own, stricter limit', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Exporter'), signIn(t.url, 'Other exporter')]);
    const exportData = (user: SignedInUser) => api<{ msg?: string }>(t.url, '/accounts/export', { token: user.bearer });
    expect((await exportData(alice)).status).toBe(200);
    const refused = await exportData(alice);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(waitIn(refused.body.msg)));
    // Searching is another bucket: the export's limit takes nothing from it.
    expect((await api(t.url, '/users/search?q=a', { token: alice.bearer })).status).toBe(200);
    expect((await exportData(bob)).status).toBe(200);
  });

  it('holds pages of a conversation to their own budget, whatever their mode, a page of up to 100 paying two', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Page reader'), signIn(t.url, 'Page writer')]);
    const { message: conversation } = await insertMessage(t.db, { senderId: bob.user.id, recipientId: alice.user.id, clientId: randomUUID(), text: 'a page' });
    const page = (query: string) => api<{ msg?: string }>(t.url, `/c/${conversation.conversation_id}/messages${query}`, { token: alice.bearer });
    // Three in the budget: the app's page (50) one, the largest two, and then nothing.
    expect((await page('')).status).toBe(200);
    expect((await page('?limit=100')).status).toBe(200);
    const refused = await page('?around=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(waitIn(refused.body.msg)));
    // The rest of the app goes on: the conversation list takes from `request`.
    expect((await api(t.url, '/c', { token: alice.bearer })).status).toBe(200);
    expect((await api(t.url, `/c/${conversation.conversation_id}/messages`, { token: bob.bearer })).status).toBe(200);
  });

  it('answers an upload over the limit with 429 before reading the body, and stores nothing', async () => {
    const alice = await signIn(t.url, 'Uploader');
    const file = pngBytes(4, 4);
    const upload = () =>
      rawUpload(t.url, { authorization: alice.bearer, 'x-file-name': 'a.png', 'content-length': file.length }, [file]);
    expect((await upload()).status).toBe(201);
    const before = await filesIn(t.uploadsDir);
    const refused = await upload();
    expect(refused.status).toBe(429);
    const body = JSON.parse(refused.body) as { msg: string };
    expect(body).toEqual({ msg: expect.stringMatching(TOO_MANY) });
    expect(refused.headers['retry-after']).toBe(String(waitIn(body.msg)));
    expect(refused.headers.connection).toBe('close');
    expect(await filesIn(t.uploadsDir)).toEqual(before);
  });

  it('counts only authenticated callers: a request without a session is a 401, not a 429', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect((await api(t.url, '/users/search?q=a')).status).toBe(401);
    }
  });
});
