import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, ChangeResult, ConversationPage, MessageChange, MessagePayload, Page, SyncResult, User } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });

const store = async (from: SignedInUser, to: SignedInUser, text = 'hello') =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;
const thread = async (viewer: SignedInUser, peer: SignedInUser) =>
  (await api<Page<MessagePayload>>(t.url, `/conversations/${peer.user.id}/messages`, { token: viewer.bearer })).body.results;
const setReceipts = (user: SignedInUser, on: boolean) =>
  api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: user.bearer, json: { read_receipts: on } });
async function sync(socket: ClientSocket, after: number, limit?: number): Promise<SyncResult> {
  const ack = await emitWithAck<Ack<SyncResult>>(socket, 'sync', { after, ...(limit === undefined ? {} : { limit }) });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}

describe('read receipts', () => {
  it('tells the sender when their messages were read, live and in the payloads', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const first = await store(ann, ben);
    const second = await store(ann, ben);
    const [annTab, benTab, benOther] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(ben)]);
    const seen = nextEvent<MessageChange>(annTab, 'message_change');
    const read = nextEvent<MessageChange>(benOther, 'message_change');
    await emitWithAck(benTab, 'read', { user_id: ann.user.id });

    const receipt = await seen;
    expect(receipt).toEqual({ kind: 'seen', seq: 3, message_id: second.id, peer_id: ben.user.id, read_at: expect.stringMatching(/Z$/) });
    expect(await read).toEqual({ kind: 'read', seq: 3, message_id: second.id, peer_id: ann.user.id, read_at: receipt.kind === 'seen' ? receipt.read_at : '', unread_count: 0 });
    const annSees = await thread(ann, ben);
    expect(annSees.map((message) => [message.id, message.read_at])).toEqual([
      [second.id, receipt.kind === 'seen' ? receipt.read_at : null],
      [first.id, receipt.kind === 'seen' ? receipt.read_at : null],
    ]);
    const list = (await api<ConversationPage>(t.url, '/conversations', { token: ann.bearer })).body;
    expect(list.results[0]?.last_message.read_at).not.toBeNull();
  });

  it('off on either side: no receipt is sent or shown, and reads made meanwhile never show later', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const early = await store(ann, ben, 'read while receipts are on');
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await emitWithAck(benTab, 'read', { user_id: ann.user.id });
    expect((await thread(ann, ben))[0]?.read_at).not.toBeNull();

    // Ben turns them off: Ann no longer sees even the earlier receipt.
    expect((await setReceipts(ben, false)).body).toMatchObject({ read_receipts: false });
    expect((await thread(ann, ben))[0]?.read_at).toBeNull();
    const annHeard = record(annTab, 'message_change');
    const late = await store(ann, ben, 'read while receipts are off');
    await emitWithAck(benTab, 'read', { user_id: ann.user.id });
    // Ben's own devices still learn the read; Ben still sees his own read_at.
    expect((await thread(ben, ann)).map((message) => message.read_at === null)).toEqual([false, false]);
    await emitWithAck(annTab, 'typing', { user_id: ben.user.id, typing: false }); // a round trip: anything for Ann has arrived
    expect(annHeard).toEqual([]);

    // Back on: the early read shows again, the one made while off never does.
    await setReceipts(ben, true);
    const annSees = await thread(ann, ben);
    expect(annSees.map((message) => [message.id, message.read_at === null])).toEqual([
      [late.id, true],
      [early.id, false],
    ]);

    // Ann's own setting hides them from her the same way, and sync leaves her receipts out.
    await setReceipts(ann, false);
    expect((await thread(ann, ben)).every((message) => message.read_at === null)).toBe(true);
    const caughtUp = await sync(annTab, 0);
    expect(caughtUp.changes.filter((change) => change.kind === 'seen')).toEqual([]);
    expect(caughtUp.through).toBe(caughtUp.last_seq);
  });

  it('sends no receipt across a block, either way, and the read still counts for the reader', async () => {
    const [blocker, other] = await Promise.all([signIn(t.url, 'Blocker'), signIn(t.url, 'Other')]);
    const fromOther = await store(other, blocker, 'before the block');
    const fromBlocker = await store(blocker, other, 'also before');
    expect((await api(t.url, `/users/${other.user.id}/block`, { method: 'PUT', token: blocker.bearer })).status).toBe(200);
    const [blockerTab, otherTab] = await Promise.all([tabs.open(blocker), tabs.open(other)]);
    const blockerHeard = record(blockerTab, 'message_change');
    const otherHeard = record(otherTab, 'message_change');

    // The blocked person reads the blocker's earlier message, and the blocker reads theirs.
    expect(await emitWithAck(otherTab, 'read', { user_id: blocker.user.id })).toEqual({ data: { count: 0, unread_count: 0 } });
    await emitWithAck(blockerTab, 'read', { user_id: other.user.id });
    await emitWithAck(blockerTab, 'typing', { user_id: other.user.id, typing: false }); // round trips: anything sent has arrived
    await emitWithAck(otherTab, 'typing', { user_id: blocker.user.id, typing: false });
    expect(blockerHeard.map((change) => change.kind)).toEqual(['read']);
    expect(otherHeard.map((change) => change.kind)).toEqual(['read']);
    // Unblocked later, the reads made meanwhile never show as seen.
    await api(t.url, `/users/${other.user.id}/block`, { method: 'DELETE', token: blocker.bearer });
    expect((await thread(blocker, other)).find((message) => message.id === fromBlocker.id)?.read_at).toBeNull();
    expect((await thread(other, blocker)).find((message) => message.id === fromOther.id)?.read_at).toBeNull();
    expect((await thread(blocker, other)).find((message) => message.id === fromOther.id)?.read_at).not.toBeNull();
  });
});

describe('sync with changes', () => {
  it('merges messages and changes by seq, leaves out what the account deleted for itself, and accounts for every seq', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const one = await store(ben, ann, 'one'); // 1
    const two = await store(ben, ann, 'two'); // 2
    const react = async (socket: ClientSocket, payload: object) => {
      const ack = await emitWithAck<Ack<ChangeResult>>(socket, 'react', payload);
      if (!('data' in ack)) throw new Error(JSON.stringify(ack));
    };
    await react(benTab, { message_id: one.id, emoji: '👍', add: true }); // 3
    await emitWithAck(annTab, 'hide', { message_id: two.id }); // 4 (Ann only)
    await store(ann, ben, 'three'); // 5

    const all = await sync(annTab, 0);
    expect(all.messages.map((message) => [message.seq, message.text])).toEqual([
      [1, 'one'],
      [5, 'three'],
    ]);
    expect(all.changes.map((change) => [change.seq, change.kind])).toEqual([
      [3, 'reaction'],
      [4, 'hide'],
    ]);
    expect([all.through, all.last_seq, all.has_more]).toEqual([5, 5, false]);

    // Pages of two: the hidden message at seq 2 is accounted for by `through`.
    const first = await sync(annTab, 0, 2);
    expect([first.messages.map((message) => message.seq), first.changes, first.through, first.has_more]).toEqual([[1], [], 2, true]);
    const second = await sync(annTab, first.through, 2);
    expect([second.changes.map((change) => change.seq), second.through, second.has_more]).toEqual([[3, 4], 4, true]);
    const third = await sync(annTab, second.through, 2);
    expect([third.messages.map((message) => message.seq), third.through, third.has_more]).toEqual([[5], 5, false]);
  });
});
