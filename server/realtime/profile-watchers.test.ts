import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, ConversationSummaryPage, ConversationThreadPage, Profile, PresenceSubscribeResult, User, UserUpdatedPayload } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// What may be done with someone (deleted, who may message them) reaches those showing them at
// once: their conversation peers, and any socket following them (presence_subscribe), seen or not.
const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

const follow = async (tab: ClientSocket, ids: number[]) => {
  const ack = await emitWithAck<Ack<PresenceSubscribeResult>>(tab, 'presence_subscribe', { user_ids: ids });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
};
const setPolicy = (user: SignedInUser, policy: 'everyone' | 'following' | 'nobody') =>
  api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: user.bearer, json: { message_policy: policy } });
const profile = async (viewer: SignedInUser, id: number) => (await api<Profile>(t.url, `/users/${id}`, { token: viewer.bearer })).body;

describe('changes to someone, told to those showing them', () => {
  it('a deleted account: its conversation peers and a stranger showing it hear it at once; the stranger finds no conversation', async () => {
    const [leaving, peer, stranger, unrelated] = (await Promise.all(['Leaving', 'Peer', 'Stranger', 'Unrelated'].map((name) => signIn(t.url, name)))) as [
      SignedInUser,
      SignedInUser,
      SignedInUser,
      SignedInUser,
    ];
    const { message: conversation } = await insertMessage(t.db, { senderId: leaving.user.id, recipientId: peer.user.id, clientId: randomUUID(), text: 'bye' });
    const [peerTab, strangerTab, unrelatedTab] = await Promise.all([tabs.open(peer), tabs.open(stranger), tabs.open(unrelated)]);
    // The stranger has the conversation open (never written), which follows its person.
    await follow(strangerTab, [leaving.user.id]);
    const unrelatedHeard = record(unrelatedTab, 'user_updated');
    const peerHears = nextEvent<UserUpdatedPayload>(peerTab, 'user_updated');
    const strangerHears = nextEvent<UserUpdatedPayload>(strangerTab, 'user_updated');

    expect((await api(t.url, '/accounts/me', { method: 'DELETE', token: leaving.bearer })).status).toBe(204);
    const gone = { id: leaving.user.id, username: null, avatar: null, deleted: true };
    expect(await peerHears).toEqual(gone);
    expect(await strangerHears).toEqual(gone);
    await emitWithAck(unrelatedTab, 'typing', { user_id: peer.user.id, typing: false }); // a round trip
    expect(unrelatedHeard).toEqual([]);

    // The peer keeps the conversation; the stranger has none to open, and the peer's is not theirs.
    const kept = await api<ConversationThreadPage>(t.url, `/c/${conversation.conversation_id}/messages`, { token: peer.bearer });
    expect([kept.status, kept.body.results.map((message) => message.text)]).toEqual([200, ['bye']]);
    expect((await api<ConversationSummaryPage>(t.url, '/c', { token: stranger.bearer })).body.results).toEqual([]);
    const none = await api(t.url, `/c/${conversation.conversation_id}/messages`, { token: stranger.bearer });
    expect([none.status, none.body]).toEqual([404, { msg: 'Conversation not found.' }]);
  });

  it('who may message them: those showing them hear it, and the profile they read again says the truth', async () => {
    const [picky, visitor] = (await Promise.all(['Picky', 'Visitor'].map((name) => signIn(t.url, name)))) as [SignedInUser, SignedInUser];
    expect((await setPolicy(picky, 'nobody')).status).toBe(200);
    const visitorTab = await tabs.open(visitor);
    await follow(visitorTab, [picky.user.id]);
    expect((await profile(visitor, picky.user.id)).can_message).toBe(false);

    const told = nextEvent<UserUpdatedPayload>(visitorTab, 'user_updated');
    expect((await setPolicy(picky, 'everyone')).status).toBe(200);
    expect(await told).toEqual({ id: picky.user.id, username: 'Picky', avatar: expect.any(String) });
    expect((await profile(visitor, picky.user.id)).can_message).toBe(true);

    // The same setting again changes nothing, and says nothing; a socket that stopped following hears nothing.
    const heard = record(visitorTab, 'user_updated');
    await setPolicy(picky, 'everyone');
    await follow(visitorTab, []);
    await setPolicy(picky, 'following');
    await emitWithAck(visitorTab, 'typing', { user_id: picky.user.id, typing: false });
    expect(heard).toEqual([]);
  });
});
