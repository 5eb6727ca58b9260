// Blocks and "who can message me" on the send path: checked inside the batch's transaction, and
// refused with one field error that does not say which rule applied.
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { Ack, FollowedPayload, MessagePayload, Profile, User } from '../../lib/contract';
import { messages } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, send, type ClientSocket } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

const CANNOT = { error: { non_field_errors: ["recipient_id: You can't message this person."] } };
const follow = (socket: ClientSocket, user: SignedInUser, on = true) =>
  emitWithAck<Ack<FollowedPayload>>(socket, 'follow', { user_id: user.user.id, follow: on });
const block = (by: SignedInUser, whom: SignedInUser, method: 'PUT' | 'DELETE' = 'PUT') =>
  api(t.url, `/users/${whom.user.id}/block`, { method, token: by.bearer });
const setPolicy = (user: SignedInUser, policy: string) =>
  api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: user.bearer, json: { message_policy: policy } });
const profile = (viewer: SignedInUser, of: SignedInUser) => api<Profile>(t.url, `/users/${of.user.id}`, { token: viewer.bearer });
const storedBetween = async (a: SignedInUser, b: SignedInUser) => {
  const [row] = await t.db.select({ n: count() }).from(messages).where(eq(messages.senderId, a.user.id));
  const [back] = await t.db.select({ n: count() }).from(messages).where(eq(messages.senderId, b.user.id));
  return (row?.n ?? 0) + (back?.n ?? 0);
};

describe('send and blocks', () => {
  it('refuses sends both ways while one blocked the other, with the generic field error, and stores nothing', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    expect(await send(benTab, ann, 'before')).toMatchObject({ data: { text: 'before' } });

    expect((await block(ann, ben)).status).toBe(200);
    expect(await send(benTab, ann, 'after')).toEqual(CANNOT);
    // The blocker cannot write either: unblocking comes first, as in every messenger.
    expect(await send(annTab, ben, 'mine')).toEqual(CANNOT);
    expect(await storedBetween(ann, ben)).toBe(1);
    expect((await profile(ben, ann)).body).toMatchObject({ can_message: false, blocked: false });
    expect((await profile(ann, ben)).body).toMatchObject({ can_message: false, blocked: true });

    expect((await block(ann, ben, 'DELETE')).status).toBe(200);
    expect(await send(benTab, ann, 'again')).toMatchObject({ data: { text: 'again' } });
    expect((await profile(ben, ann)).body).toMatchObject({ can_message: true });
  });

  it('still acks a retry of a message stored before the block (idempotent), without storing anything', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const benTab = await tabs.open(ben);
    const clientId = randomUUID();
    const first = await emitWithAck<Ack<MessagePayload>>(benTab, 'send', { client_id: clientId, recipient_id: ann.user.id, text: 'x' });
    expect((await block(ann, ben)).status).toBe(200);
    const retry = await emitWithAck<Ack<MessagePayload>>(benTab, 'send', { client_id: clientId, recipient_id: ann.user.id, text: 'x' });
    expect(retry).toEqual(first);
    expect(await storedBetween(ann, ben)).toBe(1);
  });
});

describe('who can message me', () => {
  it('is "everyone" for a new account, in accounts/info', async () => {
    const cat = await signIn(t.url, 'Cat');
    expect(cat.user.message_policy).toBe('everyone');
    expect((await api<User>(t.url, '/accounts/info', { token: cat.bearer })).body.message_policy).toBe('everyone');
  });

  it('"nobody" refuses a new conversation but lets an existing one continue', async () => {
    const [cat, dan, eve] = await Promise.all([signIn(t.url, 'Cat'), signIn(t.url, 'Dan'), signIn(t.url, 'Eve')]);
    const [danTab, eveTab] = await Promise.all([tabs.open(dan), tabs.open(eve)]);
    expect(await send(danTab, cat, 'before the setting')).toMatchObject({ data: {} });

    const saved = await setPolicy(cat, 'nobody');
    expect(saved.status).toBe(200);
    expect(saved.body.message_policy).toBe('nobody');
    expect((await api<User>(t.url, '/accounts/info', { token: cat.bearer })).body.message_policy).toBe('nobody');

    expect(await send(eveTab, cat, 'first ever')).toEqual(CANNOT);
    expect((await profile(eve, cat)).body.can_message).toBe(false);
    expect(await send(danTab, cat, 'we already talk')).toMatchObject({ data: { text: 'we already talk' } });
    expect((await profile(dan, cat)).body.can_message).toBe(true);
  });

  it('"following" lets in only people the recipient follows, for a new conversation', async () => {
    const [fay, gil, hal] = await Promise.all([signIn(t.url, 'Fay'), signIn(t.url, 'Gil'), signIn(t.url, 'Hal')]);
    const [fayTab, gilTab, halTab] = await Promise.all([tabs.open(fay), tabs.open(gil), tabs.open(hal)]);
    expect((await setPolicy(fay, 'following')).status).toBe(200);
    expect(await follow(fayTab, gil)).toMatchObject({ data: { following: true } });
    // Following Fay does not help Hal: it is whom Fay follows that counts.
    expect(await follow(halTab, fay)).toMatchObject({ data: { following: true } });

    expect(await send(halTab, fay)).toEqual(CANNOT);
    expect(await send(gilTab, fay, 'hi Fay')).toMatchObject({ data: { text: 'hi Fay' } });
    expect((await profile(hal, fay)).body.can_message).toBe(false);
    expect((await profile(gil, fay)).body.can_message).toBe(true);
    // Fay writing to Hal starts the conversation: Hal may answer from then on.
    expect(await send(fayTab, hal, 'hello Hal')).toMatchObject({ data: {} });
    expect(await send(halTab, fay, 'thanks')).toMatchObject({ data: { text: 'thanks' } });
  });

  it('refuses an unknown policy and an empty settings body', async () => {
    const ivy = await signIn(t.url, 'Ivy');
    expect((await setPolicy(ivy, 'friends')).status).toBe(400);
    const empty = await api(t.url, '/accounts/settings', { method: 'PATCH', token: ivy.bearer, json: {} });
    expect(empty).toMatchObject({ status: 400, body: { non_field_errors: ['Nothing to change: send at least one setting.'] } });
  });

  it('tells the user’s other devices when the setting changes', async () => {
    const jon = await signIn(t.url, 'Jon');
    const other = await tabs.open(jon);
    const heard = new Promise((resolve) => other.once('safety_changed', resolve));
    expect((await setPolicy(jon, 'following')).status).toBe(200);
    expect(await heard).toEqual({ type: 'message_policy', message_policy: 'following' });
  });

  it('tells the user’s other devices when online status or read receipts change, and only then', async () => {
    const kim = await signIn(t.url, 'Kim');
    const other = await tabs.open(kim);
    const heard: unknown[] = [];
    other.on('safety_changed', (change: unknown) => heard.push(change));
    const patch = (json: object) => api(t.url, '/accounts/settings', { method: 'PATCH', token: kim.bearer, json });
    expect((await patch({ show_presence: false })).status).toBe(200);
    expect((await patch({ read_receipts: false })).status).toBe(200);
    expect((await patch({ read_receipts: false, notification_sound: false })).status).toBe(200);
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([
      { type: 'privacy', show_presence: false, read_receipts: true },
      { type: 'privacy', show_presence: false, read_receipts: false },
    ]);
  });
});
