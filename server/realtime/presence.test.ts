import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_PRESENCE_SUBSCRIPTIONS, type Ack, type PresencePayload, type PresenceSubscribeResult, type User } from '../../lib/contract';
import { delay } from '../../testing/wait';
import { users } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

/** Short, so the tests wait little; long enough that a reconnect inside it is not a race. */
const GRACE_MS = 400;
const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true, presence: { offlineGraceMs: GRACE_MS } }));

const subscribe = async (tab: ClientSocket, ids: number[]) => {
  const ack = await emitWithAck<Ack<PresenceSubscribeResult>>(tab, 'presence_subscribe', { user_ids: ids });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data.presence;
};
const follow = (tab: ClientSocket, userId: number, following = true) => emitWithAck(tab, 'follow', { user_id: userId, follow: following });
const online = (user: SignedInUser): PresencePayload => ({ user_id: user.user.id, online: true, last_seen_at: null });
const hidden = (user: SignedInUser): PresencePayload => ({ user_id: user.user.id, online: false, last_seen_at: null });
const lastSeenInDb = async (user: SignedInUser) =>
  (await t.db.select({ at: users.lastSeenAt }).from(users).where(eq(users.id, user.user.id)))[0]?.at ?? null;
const setShowPresence = (user: SignedInUser, show: boolean) =>
  api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: user.bearer, json: { show_presence: show } });

/** Someone to watch: a tab open, and following the watcher (which lets the watcher see them). */
async function watched(name: string, watcher: SignedInUser): Promise<{ user: SignedInUser; tab: ClientSocket }> {
  const user = await signIn(t.url, name);
  const tab = await tabs.open(user);
  await follow(tab, watcher.user.id);
  return { user, tab };
}

describe('presence', () => {
  it('shows the people who follow you or wrote to you, and no one else', async () => {
    const [viewer, fan, writer, stranger, wroteTo] = (await Promise.all(
      ['Viewer', 'Fan', 'Writer', 'Stranger', 'Wrote to'].map((name) => signIn(t.url, name)),
    )) as [SignedInUser, SignedInUser, SignedInUser, SignedInUser, SignedInUser];
    const [viewerTab, fanTab, writerTab] = await Promise.all([tabs.open(viewer), tabs.open(fan), tabs.open(writer)]);
    await Promise.all([tabs.open(stranger), tabs.open(wroteTo)]);
    await follow(fanTab, viewer.user.id);
    await emitWithAck(writerTab, 'send', { client_id: randomUUID(), recipient_id: viewer.user.id, text: 'hi' });
    // The viewer following someone, or writing to them, gives the viewer nothing: they did not reach out.
    await follow(viewerTab, stranger.user.id);
    await emitWithAck(viewerTab, 'send', { client_id: randomUUID(), recipient_id: wroteTo.user.id, text: 'hello?' });

    const ids = [fan, writer, stranger, wroteTo, viewer].map((user) => user.user.id).concat(2_000_000_000);
    const states = await subscribe(viewerTab, ids);
    expect(states.sort((a, b) => a.user_id - b.user_id)).toEqual([online(fan), online(writer)].sort((a, b) => a.user_id - b.user_id));
  });

  it('hides each from the other while either blocked the other, though they wrote to each other before', async () => {
    const [viewer, writer, writerWhoBlocked] = (await Promise.all(['Viewer', 'Writer', 'Writer who blocked'].map((name) => signIn(t.url, name)))) as [
      SignedInUser,
      SignedInUser,
      SignedInUser,
    ];
    const [viewerTab, writerTab, otherTab] = await Promise.all([tabs.open(viewer), tabs.open(writer), tabs.open(writerWhoBlocked)]);
    for (const tab of [writerTab, otherTab]) {
      await emitWithAck(tab, 'send', { client_id: randomUUID(), recipient_id: viewer.user.id, text: 'hi' });
    }
    expect(await subscribe(viewerTab, [writer.user.id, writerWhoBlocked.user.id])).toHaveLength(2);
    // Their messages stay, and with them "wrote to the viewer": only the blocks hide them.
    expect((await api(t.url, `/users/${writer.user.id}/block`, { method: 'PUT', token: viewer.bearer })).status).toBe(200);
    expect((await api(t.url, `/users/${viewer.user.id}/block`, { method: 'PUT', token: writerWhoBlocked.bearer })).status).toBe(200);
    expect(await subscribe(viewerTab, [writer.user.id, writerWhoBlocked.user.id])).toEqual([]);
  });

  it('ends what each already sees of the other when one blocks: both are told "hidden" and hear no more comings and goings', async () => {
    const [blocker, blocked] = (await Promise.all(['Blocker', 'Blocked'].map((name) => signIn(t.url, name)))) as [SignedInUser, SignedInUser];
    const [blockerTab, blockedTab] = await Promise.all([tabs.open(blocker), tabs.open(blocked)]);
    await follow(blockerTab, blocked.user.id);
    await follow(blockedTab, blocker.user.id);
    expect(await subscribe(blockerTab, [blocked.user.id])).toEqual([online(blocked)]);
    expect(await subscribe(blockedTab, [blocker.user.id])).toEqual([online(blocker)]);

    const blockerHears = nextEvent<PresencePayload>(blockerTab, 'presence');
    const blockedHears = nextEvent<PresencePayload>(blockedTab, 'presence');
    expect((await api(t.url, `/users/${blocked.user.id}/block`, { method: 'PUT', token: blocker.bearer })).status).toBe(200);
    expect(await blockerHears).toEqual(hidden(blocked));
    expect(await blockedHears).toEqual(hidden(blocker));

    // The blocker leaving and coming back tells the blocked person nothing, and the other way round.
    const blockedHeard = record(blockedTab, 'presence');
    const blockerHeard = record(blockerTab, 'presence');
    blockerTab.close();
    await delay(GRACE_MS * 3);
    const back = await tabs.open(blocker);
    const backHeard = record(back, 'presence');
    await emitWithAck(blockedTab, 'typing', { user_id: blocker.user.id, typing: false }); // a round trip
    expect(blockedHeard).toEqual([]);
    expect(blockerHeard).toEqual([]);
    expect(backHeard).toEqual([]);
  });

  it('stays online while any tab is open; the last one closing makes it “last seen”, stored; coming back is online', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann, tab: annTab1 } = await watched('Ann', viewer);
    const annTab2 = await tabs.open(ann);
    const heard = record(viewerTab, 'presence');
    expect(await subscribe(viewerTab, [ann.user.id])).toEqual([online(ann)]);

    annTab1.close();
    await delay(GRACE_MS * 3);
    expect(heard, 'one tab of two closed').toEqual([]);

    const closedAt = Date.now();
    annTab2.close();
    const offline = await nextEvent<PresencePayload>(viewerTab, 'presence');
    expect(offline).toEqual({ user_id: ann.user.id, online: false, last_seen_at: expect.any(String) });
    const lastSeen = Date.parse(offline.last_seen_at!);
    // When the last tab closed, not when the grace ran out.
    expect(lastSeen).toBeGreaterThanOrEqual(closedAt - 1_000);
    expect(lastSeen).toBeLessThan(closedAt + GRACE_MS);
    expect((await lastSeenInDb(ann))?.toISOString()).toBe(offline.last_seen_at);
    expect(await subscribe(viewerTab, [ann.user.id])).toEqual([offline]);

    const back = nextEvent<PresencePayload>(viewerTab, 'presence');
    await tabs.open(ann);
    expect(await back).toEqual(online(ann));
  });

  it('says nothing about a tab that closes and comes back within the grace (a reload)', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann, tab } = await watched('Ann', viewer);
    await subscribe(viewerTab, [ann.user.id]);
    const heard = record(viewerTab, 'presence');
    tab.close();
    await tabs.open(ann);
    await delay(GRACE_MS * 3);
    expect(heard).toEqual([]);
  });

  it('counts a tab from its init: a socket that never sent init does not make anyone online', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann, tab } = await watched('Ann', viewer);
    tab.close();
    await tabs.open(ann, { init: false });
    await delay(GRACE_MS * 3);
    expect(await subscribe(viewerTab, [ann.user.id])).toEqual([{ user_id: ann.user.id, online: false, last_seen_at: expect.any(String) }]);
  });

  it('goes only to the sockets that subscribed, and follows each socket’s latest list', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const [subscribed, other] = await Promise.all([tabs.open(viewer), tabs.open(viewer)]);
    const { user: ann, tab: annTab } = await watched('Ann', viewer);
    const { user: ben, tab: benTab } = await watched('Ben', viewer);
    const heardBySubscribed = record(subscribed, 'presence');
    const heardByOther = record(other, 'presence');
    await subscribe(subscribed, [ann.user.id, ben.user.id]);
    await subscribe(subscribed, [ben.user.id]);
    annTab.close();
    benTab.close();
    await expect.poll(() => heardBySubscribed.map((event) => [event.user_id, event.online])).toEqual([[ben.user.id, false]]);
    await delay(GRACE_MS);
    expect(heardBySubscribed).toHaveLength(1);
    expect(heardByOther).toEqual([]);
  });

  it('hides someone who turns it off, from everyone, and hides everyone from them; turned on again, they are back', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann, tab: annTab } = await watched('Ann', viewer);
    await follow(viewerTab, ann.user.id);
    expect(await subscribe(viewerTab, [ann.user.id])).toEqual([online(ann)]);
    expect(await subscribe(annTab, [viewer.user.id])).toEqual([online(viewer)]);

    const viewerHears = nextEvent<PresencePayload>(viewerTab, 'presence');
    const annHears = nextEvent<PresencePayload>(annTab, 'presence');
    const response = await setShowPresence(ann, false);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: ann.user.id, show_presence: false });
    expect(await viewerHears).toEqual(hidden(ann));
    expect(await annHears).toEqual(hidden(viewer));
    expect(await subscribe(viewerTab, [ann.user.id])).toEqual([]);
    expect(await subscribe(annTab, [viewer.user.id])).toEqual([]);

    // Hidden, their comings and goings reach nobody.
    const heard = record(viewerTab, 'presence');
    await subscribe(viewerTab, [ann.user.id]);
    annTab.close();
    await delay(GRACE_MS * 3);
    expect(heard).toEqual([]);

    const back = nextEvent<PresencePayload>(viewerTab, 'presence');
    expect((await setShowPresence(ann, true)).body).toMatchObject({ show_presence: true });
    expect(await back).toEqual({ user_id: ann.user.id, online: false, last_seen_at: expect.any(String) });
  });

  it('stops at once when the person who let you see it unfollows you (and never wrote to you)', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann, tab: annTab } = await watched('Ann', viewer);
    await subscribe(viewerTab, [ann.user.id]);
    const hiddenNow = nextEvent<PresencePayload>(viewerTab, 'presence');
    await follow(annTab, viewer.user.id, false);
    expect(await hiddenNow).toEqual(hidden(ann));
    const heard = record(viewerTab, 'presence');
    annTab.close();
    await delay(GRACE_MS * 3);
    expect(heard).toEqual([]);
  });

  it('tells watchers a deactivated account is gone, with no last seen', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const viewerTab = await tabs.open(viewer);
    const { user: ann } = await watched('Ann', viewer);
    await subscribe(viewerTab, [ann.user.id]);
    const gone = nextEvent<PresencePayload>(viewerTab, 'presence');
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: ann.bearer })).status).toBe(204);
    expect(await gone).toEqual(hidden(ann));
  });

  it('refuses malformed lists with a field error, and more than the cap', async () => {
    const viewer = await signIn(t.url, 'Viewer');
    const tab = await tabs.open(viewer);
    const tooMany = Array.from({ length: MAX_PRESENCE_SUBSCRIPTIONS + 1 }, (_, i) => i + 1);
    for (const payload of [{}, { user_ids: 5 }, { user_ids: [0] }, { user_ids: ['1'] }, { user_ids: tooMany }, { user_ids: [], extra: 1 }, null]) {
      expect(await emitWithAck(tab, 'presence_subscribe', payload)).toEqual({ error: { non_field_errors: expect.any(Array) } });
    }
    expect(await subscribe(tab, [])).toEqual([]);
    const early = await tabs.open(viewer, { init: false });
    expect(await emitWithAck(early, 'presence_subscribe', { user_ids: [] })).toEqual({ error: { msg: 'Send init before other events.' } });
  });
});
