// The cluster test (docs/DELIVERY.md, "Cluster test"), what crosses nodes: two production server
// nodes sharing a throwaway PostgreSQL and Redis. Everything a user does crosses nodes, presence
// included, down to a killed node's users going offline as seen from the other. Uploads live in a
// shared bucket: what one node stored, the other serves. Failover is in failover.test.ts.
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Attachment, ConversationMessage, ConversationSummaryPage, ConversationThreadPage, PresencePayload, Profile } from '../lib/contract';
import { users } from '../server/db/schema';
import { DEFAULT_OFFLINE_GRACE_MS } from '../server/realtime/presence/presence';
import { DEFAULT_REDIS_REGISTRY_TIMING } from '../server/realtime/presence/redis-registry';
import type { ServerProcess } from '../faults/server-process';
import { png } from '../testing/png';
import { delay, waitUntil } from '../testing/wait';
import { SEARCH_BUDGET, SOCKET_CAP } from './cluster';
import { cluster, open, registerClusterHooks, send } from './cluster-harness';
import { eventsOf, report, seconds } from './cluster-observations';
import { Tab, getJson, type SeededSession } from './tab';

const EVENT_TIMEOUT_MS = 10_000;
/**
 * A killed node's users go offline once its entry has expired and a live node's heartbeat sweeps
 * it (docs/DEPLOY.md, "Presence"): the bound. Delivery and a busy machine get a few seconds more.
 */
const OFFLINE_BOUND_MS = DEFAULT_REDIS_REGISTRY_TIMING.ttlMs + DEFAULT_REDIS_REGISTRY_TIMING.heartbeatMs;
const OFFLINE_SLACK_MS = 5_000;

registerClusterHooks();

it('carries follows, messages, unread counts and reads across nodes; a tab on each node sees every event once', async () => {
  const { a, b } = cluster;
  const [alice, bob, carol] = cluster.take(3).map((user): SeededSession => user) as [SeededSession, SeededSession, SeededSession];
  const aliceA = await open('alice on A', a, alice);
  const aliceB = await open('alice on B', b, alice);
  const bobB = await open('bob on B', b, bob);
  const carolA = await open('carol on A', a, carol);

  // Follow A → B, then B → A: the followee hears it on the other node, the follower on both.
  await aliceA.call('follow', { user_id: bob.id, follow: true });
  await bobB.waitFor('follower', (event) => event.follower_id === alice.id && event.following, EVENT_TIMEOUT_MS);
  await aliceB.waitFor('followed', (event) => event.followee_id === bob.id && event.following, EVENT_TIMEOUT_MS);
  await bobB.call('follow', { user_id: alice.id, follow: true });
  for (const tab of [aliceA, aliceB]) await tab.waitFor('follower', (event) => event.follower_id === bob.id, EVENT_TIMEOUT_MS);
  const bobSeenFromA = await getJson<Profile>(a.url, alice, `/users/${bob.id}`);
  expect(bobSeenFromA).toMatchObject({ is_following: true, follows_you: true, followers_count: 1 });

  // Messages both ways: A → B reaches bob and alice's other tab; B → A reaches both of alice's.
  const hello = await send(aliceA, bob.id, 'hello from A');
  const helloForBob = await bobB.waitFor('message', (message) => message.id === hello.id, EVENT_TIMEOUT_MS);
  const conversation = hello.conversation_id;
  expect(helloForBob).toEqual(hello);
  expect(helloForBob).toMatchObject({ conversation_id: conversation, sender_id: alice.id, text: 'hello from A', seq: 1 });
  await aliceB.waitFor('message_sent', (message) => message.id === hello.id, EVENT_TIMEOUT_MS);
  const replies: ConversationMessage[] = [];
  for (const text of ['one from B', 'two from B', 'three from B']) replies.push(await send(bobB, alice.id, text));
  for (const tab of [aliceA, aliceB]) {
    for (const reply of replies) await tab.waitFor('message', (message) => message.id === reply.id, EVENT_TIMEOUT_MS);
  }
  expect(aliceA.received('message').map((message) => message.seq)).toEqual([2, 3, 4]);

  // Unread counts, the same from either node: the list's badge, and the total a new tab is told.
  const unreadFromBob = async (node: ServerProcess) =>
    (await getJson<ConversationSummaryPage>(node.url, alice, '/c')).results.find((row) => row.conversation_id === conversation)?.unread_count;
  expect([await unreadFromBob(a), await unreadFromBob(b)]).toEqual([3, 3]);
  const aliceNewTab = await open('alice, new tab on A', a, alice);
  expect(aliceNewTab.received('message_count')).toEqual([{ count: 3 }]);
  aliceNewTab.close();

  // Read on B: every tab of alice's, on both nodes, hears the new count and her `read` item (the
  // account's seq 1), which clears the badge; bob's tab hears the receipt.
  expect(await aliceB.call('read', { conversation_id: conversation })).toEqual({ count: 0, unread_count: 0 });
  for (const tab of [aliceA, aliceB]) await tab.waitFor('account_item', (item) => item.kind === 'read' && item.conversation_id === conversation, EVENT_TIMEOUT_MS);
  await bobB.waitFor('seen', (seen) => seen.user_id === alice.id && seen.seq === 4, EVENT_TIMEOUT_MS);
  expect([await unreadFromBob(a), await unreadFromBob(b)]).toEqual([0, 0]);
  const bobsThread = await getJson<ConversationThreadPage>(a.url, bob, `/c/${conversation}/messages`);
  expect(bobsThread.seen).toEqual([{ user_id: alice.id, seq: 4, read_at: expect.any(String) }]);

  // Changes to messages cross nodes the same way, each to every tab of both people once, at the
  // conversation's next seqs after its four messages (docs/DELIVERY.md, "Changes to messages"): a
  // reaction made on B, an edit on A, an unsend on B; then a delete for me on A, alice's own item
  // (her account's seq 2), which only her tabs hear (on both nodes).
  expect(await bobB.call('react', { message_id: hello.id, emoji: '👍', add: true })).toMatchObject({ change: { kind: 'reaction', seq: 5 } });
  expect(await aliceA.call('edit', { message_id: hello.id, text: 'hello from A, edited' })).toMatchObject({ change: { kind: 'edit', seq: 6 } });
  expect(await bobB.call('unsend', { message_id: replies[2]!.id })).toMatchObject({ change: { kind: 'unsend', seq: 7 } });
  for (const tab of [aliceA, aliceB, bobB]) await tab.waitFor('message_change', (change) => change.kind === 'unsend', EVENT_TIMEOUT_MS);
  expect(await aliceA.call('hide', { message_id: replies[0]!.id })).toMatchObject({ change: { kind: 'hide', seq: 2 } });
  for (const tab of [aliceA, aliceB]) await tab.waitFor('account_item', (item) => item.kind === 'hide', EVENT_TIMEOUT_MS);
  const changes = ['edit@6', 'reaction@5', 'unsend@7']; // sorted, as eventsOf lists them

  // Last, one message from each node to everyone: once they are in, any second copy of an earlier
  // event (which would travel the same ordered stream) has arrived too, and the counts are final.
  const lastFromA = [await send(carolA, alice.id, 'last from A'), await send(carolA, bob.id, 'last from A')];
  const lastFromB = await send(bobB, alice.id, 'last from B');
  for (const tab of [aliceA, aliceB]) {
    for (const last of [lastFromA[0]!, lastFromB]) await tab.waitFor('message', (message) => message.id === last.id, EVENT_TIMEOUT_MS);
  }
  await bobB.waitFor('message', (message) => message.id === lastFromA[1]!.id, EVENT_TIMEOUT_MS);

  const follow = (follower: SeededSession, followee: SeededSession) => `${follower.id}>${followee.id}:true`;
  const ids = (...messages: ConversationMessage[]) => messages.map((message) => `#${message.id}`).sort();
  const alicesTab = (sent: ConversationMessage[]) => ({
    message_count: ['0', '0'],
    followed: [follow(alice, bob)],
    follower: [follow(bob, alice)],
    message: ids(...replies, lastFromA[0]!, lastFromB),
    message_sent: ids(...sent),
    message_change: changes,
    account_item: ['hide@2', 'read@1'],
    seen: [],
  });
  expect(eventsOf(aliceA), 'alice on A').toEqual(alicesTab([]));
  expect(eventsOf(aliceB), 'alice on B').toEqual(alicesTab([hello]));
  expect(eventsOf(bobB), 'bob on B').toEqual({
    message_count: ['0'],
    followed: [follow(bob, alice)],
    follower: [follow(alice, bob)],
    message: ids(hello, lastFromA[1]!),
    message_sent: [],
    message_change: changes,
    account_item: [],
    seen: [`${alice.id}@4`],
  });
});

it('serves through node B an image uploaded through node A, from the shared bucket, ranges included', async () => {
  const { a, b } = cluster;
  const dana: SeededSession = cluster.take(1)[0]!;
  const image = png(64, 48);
  const uploaded = await fetch(`${a.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dana.token}`, 'x-file-name': 'map.png' },
    body: new Uint8Array(image),
  });
  expect(uploaded.status).toBe(201);
  const attachment = (await uploaded.json()) as Attachment;
  expect(attachment).toMatchObject({ mime_type: 'image/png', width: 64, height: 48, size: image.length });
  expect(await cluster.s3.objectKeys()).toHaveLength(1);

  const fromB = await fetch(`${b.url}${attachment.url}`);
  expect([fromB.status, fromB.headers.get('content-type'), fromB.headers.get('x-content-type-options')]).toEqual([200, 'image/png', 'nosniff']);
  expect(Buffer.from(await fromB.arrayBuffer()).equals(image)).toBe(true);
  const slice = await fetch(`${b.url}${attachment.url}`, { headers: { range: 'bytes=8-23' } });
  expect([slice.status, slice.headers.get('content-range')]).toEqual([206, `bytes 8-23/${image.length}`]);
  expect(Buffer.from(await slice.arrayBuffer()).equals(image.subarray(8, 24))).toBe(true);
});

it('holds each user’s limits across the nodes: one budget, one socket cap', async () => {
  const { a, b } = cluster;
  const [dora, eli] = cluster.take(2).map((user): SeededSession => user) as [SeededSession, SeededSession];
  const search = (node: ServerProcess, user: SeededSession) =>
    fetch(`${node.url}/api/users/search?q=cluster`, { headers: { authorization: `Bearer ${user.token}` } });
  // Half the budget on each node spends all of it: the next search is refused on both.
  for (const node of [a, b]) {
    for (let i = 0; i < SEARCH_BUDGET / 2; i += 1) expect((await search(node, dora)).status).toBe(200);
  }
  const [refusedOnA, refusedOnB] = [await search(a, dora), await search(b, dora)];
  expect([refusedOnA.status, refusedOnB.status]).toEqual([429, 429]);
  expect(await refusedOnB.json()).toEqual({ msg: expect.stringMatching(/^Too many requests\. Try again in \d+ s\.$/) });
  expect((await search(b, eli)).status).toBe(200);

  // The cap counts the user's sockets on both nodes: one more than it, and the oldest goes,
  // though it is on the other node.
  const tabs: Tab[] = [];
  for (let index = 0; index < SOCKET_CAP; index += 1) {
    const onA = index < SOCKET_CAP / 2;
    tabs.push(await open(`dora ${index} on ${onA ? 'A' : 'B'}`, onA ? a : b, dora));
  }
  const newest = await open('dora, one too many, on B', b, dora);
  await waitUntil(() => !tabs[0]!.connected, { timeoutMs: EVENT_TIMEOUT_MS, what: 'dora’s oldest tab (on A) disconnected' });
  expect([...tabs.slice(1), newest].map((tab) => tab.connected)).toEqual([true, true, true, true]);
});

it('carries typing and presence across nodes; a killed node’s users go offline within the bound, seen from the other', async () => {
  const { a, b } = cluster;
  const [alice, bob, carol] = cluster.take(3).map((user): SeededSession => user) as [SeededSession, SeededSession, SeededSession];
  const aliceA = await open('alice on A', a, alice);
  const aliceB = await open('alice on B', b, alice);
  const bobB = await open('bob on B', b, bob);
  const carolA = await open('carol on A', a, carol);
  // Alice and Carol follow Bob: that lets him see their presence.
  await aliceA.call('follow', { user_id: bob.id, follow: true });
  await carolA.call('follow', { user_id: bob.id, follow: true });
  const online = (user: SeededSession): PresencePayload => ({ user_id: user.id, online: true, last_seen_at: null });
  const states = await bobB.call('presence_subscribe', { user_ids: [alice.id, carol.id] });
  expect(states.presence.sort((x, y) => x.user_id - y.user_id)).toEqual([online(alice), online(carol)].sort((x, y) => x.user_id - y.user_id));

  // Typing from A reaches Bob on B, started and stopped, in their conversation; it is never stored.
  const { conversation_id: conversation } = await send(aliceA, bob.id, 'about to type');
  await aliceA.call('typing', { conversation_id: conversation, typing: true });
  await bobB.waitFor('typing', (event) => event.conversation_id === conversation && event.user_id === alice.id && event.typing, EVENT_TIMEOUT_MS);
  await aliceB.call('typing', { user_id: bob.id, typing: false });
  await bobB.waitFor('typing', (event) => event.conversation_id === conversation && event.user_id === alice.id && !event.typing, EVENT_TIMEOUT_MS);
  expect((await getJson<ConversationThreadPage>(b.url, bob, `/c/${conversation}/messages`)).last_seq).toBe(1);

  // Alice stays online while a tab of hers is open on either node.
  aliceA.close();
  await delay(DEFAULT_OFFLINE_GRACE_MS + 2_000);
  expect(bobB.received('presence'), 'alice closed one of her two tabs').toEqual([]);
  aliceB.close();
  const aliceGone = await bobB.waitFor('presence', (event) => event.user_id === alice.id, DEFAULT_OFFLINE_GRACE_MS + EVENT_TIMEOUT_MS);
  expect(aliceGone).toEqual({ user_id: alice.id, online: false, last_seen_at: expect.any(String) });
  const aliceBack = await open('alice back on A', a, alice);
  await bobB.waitFor('presence', (event) => event.user_id === alice.id && event.online, EVENT_TIMEOUT_MS);

  // A dies with Carol's only tab (and Alice's new one) on it: B takes them offline within the bound.
  const heardBefore = bobB.events.length;
  const offlineSinceKill = (user: SeededSession) =>
    bobB.events
      .slice(heardBefore)
      .map((event) => (event.name === 'presence' ? (event.payload as PresencePayload) : null))
      .find((event) => event?.user_id === user.id && !event.online);
  const killedAt = Date.now();
  await a.kill();
  await waitUntil(() => offlineSinceKill(carol) !== undefined && offlineSinceKill(alice) !== undefined, {
    timeoutMs: OFFLINE_BOUND_MS + OFFLINE_SLACK_MS,
    what: 'B tells bob that carol and alice, whose tabs were on A, went offline',
    detail: () => `bob heard: ${JSON.stringify(bobB.events.slice(heardBefore))}`,
  });
  const offlineAfterMs = Date.now() - killedAt;
  const gone = [offlineSinceKill(carol)!, offlineSinceKill(alice)!];
  const [carolRow] = await cluster.database.db.select({ lastSeenAt: users.lastSeenAt }).from(users).where(eq(users.id, carol.id));
  report('Cluster: typing and presence', [
    ['killed node’s users offline, seen from B, after', `${seconds(offlineAfterMs)} (bound ${seconds(OFFLINE_BOUND_MS)})`],
    ['carol last seen (stored)', carolRow?.lastSeenAt?.toISOString() ?? 'null'],
  ]);
  expect(offlineAfterMs).toBeLessThanOrEqual(OFFLINE_BOUND_MS + OFFLINE_SLACK_MS);
  for (const event of gone) expect(event.last_seen_at).not.toBeNull();
  expect(carolRow?.lastSeenAt?.getTime()).toBeLessThanOrEqual(killedAt);
  expect(aliceBack.connected).toBe(false);

  await a.start();
  await cluster.meshed();
});
