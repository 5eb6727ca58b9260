// Web Push end to end on loopback: subscriptions made by a real push service (web-push-testing),
// registered through the API, pushes encrypted and VAPID-signed by the server and decrypted by
// that push service. What each preview level lets through, and every case that must push nothing.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationContent, User } from '../../lib/contract';
import { startLocalPushService, type LocalPushService, type LocalSubscription } from '../../testing/push-service';
import { waitUntil } from '../../testing/wait';
import { DEFAULT_SESSION_RULES } from '../db/session-rules';
import { findPushTargets } from '../db/push-targets';
import { pushSubscriptions, sessions } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, sendAccepted, type ClientSocket } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { rooms } from '../realtime/types';

const vapid = { ...webPush.generateVAPIDKeys(), subject: 'mailto:tests@parley.example' };
let service: LocalPushService;
/** A push service that answers every push with 404 Not Found (a subscription it never knew). */
let notFound: Server;
let notFoundUrl: string;

beforeAll(async () => {
  service = await startLocalPushService();
  notFound = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
  notFoundUrl = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`;
}, 60_000);
// Registered before the server's: after hooks run in reverse, so these close after the server does.
afterAll(async () => {
  await service?.close();
  notFound?.close();
});
const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true, push: { vapid, endpointOrigins: ['http://127.0.0.1'] } }));

async function subscribe(user: SignedInUser | string): Promise<LocalSubscription> {
  const local = await service.subscribe(vapid.publicKey);
  const bearer = typeof user === 'string' ? user : user.bearer;
  const response = await api(t.url, '/push/subscriptions', { method: 'POST', token: bearer, json: local.subscription });
  expect(response.status).toBe(201);
  return local;
}

/** The pushes the subscription received, parsed, once there are `count` of them. */
async function pushes(local: LocalSubscription, count: number): Promise<NotificationContent[]> {
  let received: string[] = [];
  await waitUntil(async () => (received = await service.received(local.clientHash)).length >= count, {
    timeoutMs: 10_000,
    what: `${count} push(es) to arrive`,
    detail: () => JSON.stringify(received),
  });
  return received.map((text) => JSON.parse(text) as NotificationContent);
}

const endpointsOf = async (userId: number) =>
  (await t.db.select().from(pushSubscriptions).where(sql`${pushSubscriptions.userId} = ${userId}`)).map((row) => row.endpoint);

async function pair(): Promise<{ alice: SignedInUser; bob: SignedInUser; aliceTab: ClientSocket }> {
  const [alice, bob] = await Promise.all([signIn(t.url, 'Alice Sender'), signIn(t.url, 'Bob')]);
  return { alice, bob, aliceTab: await tabs.open(alice) };
}

describe('subscriptions', () => {
  it('registers a browser once (201, then 200 when it registers again) and gives the public key', async () => {
    const bob = await signIn(t.url, 'Bob');
    expect((await api(t.url, '/push/public-key', { token: bob.bearer })).body).toEqual({ public_key: vapid.publicKey });
    const local = await subscribe(bob);
    const again = await api(t.url, '/push/subscriptions', { method: 'POST', token: bob.bearer, json: local.subscription });
    expect(again.status).toBe(200);
    expect(await endpointsOf(bob.user.id)).toEqual([local.subscription.endpoint]);
  });

  it('refuses endpoints outside the allowed push services and malformed keys', async () => {
    const bob = await signIn(t.url, 'Bob');
    const { subscription } = await service.subscribe(vapid.publicKey);
    const post = (json: unknown) => api(t.url, '/push/subscriptions', { method: 'POST', token: bob.bearer, json });
    for (const endpoint of ['http://10.0.0.1/push', 'https://127.0.0.1.evil.example/x', 'http://user:pw@127.0.0.1/x', 'ftp://127.0.0.1/x']) {
      const response = await post({ ...subscription, endpoint });
      expect(response.status, endpoint).toBe(400);
      expect(response.body).toEqual({ non_field_errors: [expect.stringMatching(/^endpoint: /)] });
    }
    expect((await post({ ...subscription, keys: { ...subscription.keys, auth: 'c2hvcnQ' } })).body).toEqual({
      non_field_errors: ['keys.auth: Must be 16 bytes.'],
    });
    expect((await post({ ...subscription, keys: { ...subscription.keys, p256dh: subscription.keys.auth } })).status).toBe(400);
    expect(await endpointsOf(bob.user.id)).toEqual([]);
  });

  it('unsubscribes only the caller’s own registration (204 either way)', async () => {
    const [bob, eve] = await Promise.all([signIn(t.url, 'Bob'), signIn(t.url, 'Eve')]);
    const local = await subscribe(bob);
    const remove = (user: SignedInUser) =>
      api(t.url, '/push/subscriptions', { method: 'DELETE', token: user.bearer, json: { endpoint: local.subscription.endpoint } });
    expect((await remove(eve)).status).toBe(204);
    expect(await endpointsOf(bob.user.id)).toEqual([local.subscription.endpoint]);
    expect((await remove(bob)).status).toBe(204);
    expect(await endpointsOf(bob.user.id)).toEqual([]);
  });

  it('sign-out removes the signed-out device’s subscription only; deactivation removes them all', async () => {
    const bob = await signIn(t.url, 'Bob');
    const second = await api<{ token: string }>(t.url, '/accounts/authorize', {
      method: 'POST',
      json: { firebase_id: bob.account.uid, social_type: 'google', id_token: bob.account.idToken },
    });
    const otherDevice = `Bearer ${second.body.token}`;
    const laptop = await subscribe(bob);
    const phone = await subscribe(otherDevice);
    expect((await api(t.url, '/accounts/logout', { method: 'POST', token: bob.bearer })).status).toBe(204);
    expect(await endpointsOf(bob.user.id)).toEqual([phone.subscription.endpoint]);
    expect(laptop.subscription.endpoint).not.toBe(phone.subscription.endpoint);
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: otherDevice })).status).toBe(204);
    expect(await endpointsOf(bob.user.id)).toEqual([]);
  });

  it('answers 404 when the server has no VAPID keys', async () => {
    const off = await startTestServer({ inMemory: true });
    try {
      const bob = await signIn(off.url, 'Bob');
      expect((await api(off.url, '/push/public-key', { token: bob.bearer })).body).toEqual({ public_key: null });
      const { subscription } = await service.subscribe(vapid.publicKey);
      const response = await api(off.url, '/push/subscriptions', { method: 'POST', token: bob.bearer, json: subscription });
      expect(response).toMatchObject({ status: 404, body: { msg: 'This server sends no Web Push.' } });
    } finally {
      await off.close();
    }
  });
});

describe('delivery', () => {
  it('pushes the text and the sender by default, decrypted by the push service', async () => {
    const { alice, bob, aliceTab } = await pair();
    const local = await subscribe(bob);
    const message = await sendAccepted(aliceTab, bob, 'Lunch at 1?');
    const [push] = await pushes(local, 1);
    expect(push).toEqual({
      title: 'Alice Sender',
      body: 'Lunch at 1?',
      icon: 'https://example.com/avatar.png',
      tag: `conversation-${alice.user.id}`,
      url: `/main/${alice.user.id}`,
      message_id: message.id,
      peer_id: alice.user.id,
      silent: false,
      preview: 'text',
    });
  });

  it('shows only the sender, or nothing, as the recipient’s setting says, in their language', async () => {
    const { alice, bob, aliceTab } = await pair();
    const local = await subscribe(bob);
    const settings = (body: object) => api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: bob.bearer, json: body });
    expect((await settings({ notification_preview: 'sender', notification_sound: false })).body).toMatchObject({
      notification_preview: 'sender',
      notification_sound: false,
    });
    await sendAccepted(aliceTab, bob, 'a secret plan');
    const [senderOnly] = await pushes(local, 1);
    expect(senderOnly).toMatchObject({ title: 'Alice Sender', body: 'New message', peer_id: alice.user.id, silent: true, preview: 'sender' });

    await settings({ notification_preview: 'none', language: 'fr' });
    await sendAccepted(aliceTab, bob, 'another secret');
    const [, hidden] = await pushes(local, 2);
    expect(hidden).toEqual({
      title: 'Parley',
      body: 'Vous avez un nouveau message',
      icon: '/icons/icon-192.png',
      tag: 'parley-message',
      url: '/main',
      message_id: expect.any(Number),
      silent: true,
      preview: 'none',
    });
    // Nothing of the sender or the text anywhere in what left the server.
    const raw = (await service.received(local.clientHash))[1] ?? '';
    for (const secret of ['Alice', 'secret', 'peer_id', 'avatar']) expect(raw).not.toContain(secret);
  });

  it('pushes to every browser of the recipient', async () => {
    const { bob, aliceTab } = await pair();
    const [laptop, phone] = [await subscribe(bob), await subscribe(bob)];
    await sendAccepted(aliceTab, bob, 'to both');
    expect((await pushes(laptop, 1))[0]?.body).toBe('to both');
    expect((await pushes(phone, 1))[0]?.body).toBe('to both');
  });
});

describe('no push', () => {
  it('while a tab of the recipient reports itself visible, on any socket', async () => {
    const { bob, aliceTab } = await pair();
    const local = await subscribe(bob);
    const [bobVisible, bobHidden] = await Promise.all([tabs.open(bob), tabs.open(bob)]);
    expect(await emitWithAck(bobHidden, 'visibility', { visible: false })).toEqual({ data: { visible: false } });
    expect(await emitWithAck(bobVisible, 'visibility', { visible: true })).toEqual({ data: { visible: true } });
    await sendAccepted(aliceTab, bob, 'seen in the tab');
    await emitWithAck(bobVisible, 'visibility', { visible: false });
    await sendAccepted(aliceTab, bob, 'tab hidden now');
    await emitWithAck(bobVisible, 'visibility', { visible: true });
    bobVisible.close(); // a visible tab that goes away stops counting
    await waitUntil(async () => !(await t.server.io.in(rooms.inbox(bob.user.id)).fetchSockets()).some((s) => s.id === bobVisible.id), {
      timeoutMs: 5_000,
      what: 'the closed tab to leave the server',
    });
    await sendAccepted(aliceTab, bob, 'tab closed');
    const received = await pushes(local, 2);
    expect(received.map((push) => push.body)).toEqual(['tab hidden now', 'tab closed']);
  });

  it('for a conversation the recipient muted, until they unmute it', async () => {
    const { alice, bob, aliceTab } = await pair();
    const local = await subscribe(bob);
    await sendAccepted(aliceTab, bob, 'first');
    await pushes(local, 1);
    const setMuted = async (muted: boolean) =>
      expect((await api(t.url, `/conversations/${alice.user.id}`, { method: 'PATCH', token: bob.bearer, json: { muted } })).status).toBe(200);
    await setMuted(true);
    await sendAccepted(aliceTab, bob, 'muted one');
    await setMuted(false);
    await sendAccepted(aliceTab, bob, 'unmuted again');
    const received = await pushes(local, 2);
    expect(received.map((push) => push.body)).toEqual(['first', 'unmuted again']);
  });

  it('between people one of whom blocked the other: the send is refused, and a block made after a message was stored wins over its push', async () => {
    const { alice, bob, aliceTab } = await pair();
    const local = await subscribe(bob);
    await sendAccepted(aliceTab, bob, 'before the block');
    await pushes(local, 1);
    const targets = () => findPushTargets(t.db, bob.user.id, alice.user.id, DEFAULT_SESSION_RULES);
    expect(await targets()).not.toBeNull();

    const block = (by: SignedInUser, of: SignedInUser, method: 'PUT' | 'DELETE') =>
      api(t.url, `/users/${of.user.id}/block`, { method, token: by.bearer });
    expect((await block(bob, alice, 'PUT')).status).toBe(200);
    expect(await emitWithAck(aliceTab, 'send', { client_id: randomUUID(), recipient_id: bob.user.id, text: 'let me in' })).toEqual({
      error: { non_field_errors: ["recipient_id: You can't message this person."] },
    });
    // The message stored just before the block, whose push the pool reaches just after it.
    expect(await targets()).toBeNull();
    expect((await block(bob, alice, 'DELETE')).status).toBe(200);
    expect(await targets()).not.toBeNull();
    // The sender's block counts too: neither can message the other.
    expect((await block(alice, bob, 'PUT')).status).toBe(200);
    expect(await targets()).toBeNull();
    expect(await service.received(local.clientHash)).toHaveLength(1);
  });

  it('to a browser whose session ended (revoked or expired), even while its row is still there', async () => {
    const { alice, bob, aliceTab } = await pair();
    const second = async () => {
      const response = await api<{ token: string }>(t.url, '/accounts/authorize', {
        method: 'POST',
        json: { firebase_id: bob.account.uid, social_type: 'google', id_token: bob.account.idToken },
      });
      return `Bearer ${response.body.token}`;
    };
    const [revokedDevice, idleDevice] = [await second(), await second()];
    const live = await subscribe(bob);
    const revoked = await subscribe(revokedDevice);
    const idle = await subscribe(idleDevice);
    const sessionOf = async (endpoint: string) =>
      (await t.db.select().from(pushSubscriptions).where(sql`${pushSubscriptions.endpoint} = ${endpoint}`))[0]!.sessionId;
    await t.db.update(sessions).set({ revokedAt: sql`now()` }).where(sql`${sessions.id} = ${await sessionOf(revoked.subscription.endpoint)}`);
    await t.db
      .update(sessions)
      .set({ lastUsedAt: sql`now() - interval '31 days'` })
      .where(sql`${sessions.id} = ${await sessionOf(idle.subscription.endpoint)}`);

    const targets = await findPushTargets(t.db, bob.user.id, alice.user.id, DEFAULT_SESSION_RULES);
    expect(targets?.subscriptions.map((row) => row.endpoint)).toEqual([live.subscription.endpoint]);
    await sendAccepted(aliceTab, bob, 'to the live one');
    expect((await pushes(live, 1))[0]?.body).toBe('to the live one');
  });

  it('to a deleted account, whose subscriptions all go', async () => {
    const { alice, bob, aliceTab } = await pair();
    await subscribe(bob);
    await sendAccepted(aliceTab, bob, 'hello');
    expect((await api(t.url, '/accounts/me', { method: 'DELETE', token: bob.bearer })).status).toBe(204);
    expect(await endpointsOf(bob.user.id)).toEqual([]);
    expect(await findPushTargets(t.db, bob.user.id, alice.user.id, DEFAULT_SESSION_RULES)).toBeNull();
  });

  it('and the subscription is removed when the push service answers 410 Gone or 404 Not Found', async () => {
    const { bob, aliceTab } = await pair();
    const expired = await subscribe(bob);
    await service.expire(expired.clientHash);
    const unknown = await service.subscribe(vapid.publicKey);
    const missing = { ...unknown.subscription, endpoint: `${notFoundUrl}/push/${randomUUID()}` };
    expect((await api(t.url, '/push/subscriptions', { method: 'POST', token: bob.bearer, json: missing })).status).toBe(201);
    const alive = await subscribe(bob);
    expect((await endpointsOf(bob.user.id)).sort()).toEqual([expired, alive].map((s) => s.subscription.endpoint).concat(missing.endpoint).sort());

    await sendAccepted(aliceTab, bob, 'who is still there?');
    expect((await pushes(alive, 1))[0]?.body).toBe('who is still there?');
    await waitUntil(async () => (await endpointsOf(bob.user.id)).length === 1, { timeoutMs: 5_000, what: 'the gone subscriptions to be removed' });
    expect(await endpointsOf(bob.user.id)).toEqual([alive.subscription.endpoint]);
  });
});

describe('the send path', () => {
  it('acks a message while its push is still waiting for a push service that does not answer', async () => {
    const { bob, aliceTab } = await pair();
    let arrived!: () => void;
    const pushArrived = new Promise<void>((resolve) => (arrived = resolve));
    const held: { res: () => void }[] = [];
    const hanging = createServer((req, res) => {
      held.push({ res: () => res.writeHead(201).end() });
      arrived();
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const { subscription } = await service.subscribe(vapid.publicKey);
      const endpoint = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/push/x`;
      expect((await api(t.url, '/push/subscriptions', { method: 'POST', token: bob.bearer, json: { ...subscription, endpoint } })).status).toBe(201);
      const first = await sendAccepted(aliceTab, bob, 'one');
      await pushArrived;
      // The push service holds the first push; sends go on being acked meanwhile.
      const second = await sendAccepted(aliceTab, bob, 'two');
      expect(second.id).toBeGreaterThan(first.id);
      expect(held.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const { res } of held) res();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
