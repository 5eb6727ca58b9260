import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountItem, AccountSyncResult, Ack, ChangeResult, ConversationSummaryPage, ConversationSyncResult, ConversationThreadPage, SeenPayload, User } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());

const store = async (from: SignedInUser, to: SignedInUser, text = 'hello') =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;
/** `viewer`'s newest page of the conversation: its messages, where the other person has read (`seen`) and where `viewer` has (`read_seq`). */
const thread = async (viewer: SignedInUser, conversation: number) =>
  (await api<ConversationThreadPage>(t.url, `/c/${conversation}/messages`, { token: viewer.bearer })).body;
const setReceipts = (user: SignedInUser, on: boolean) =>
  api<User>(t.url, '/accounts/settings', { method: 'PATCH', token: user.bearer, json: { read_receipts: on } });
async function syncConversation(socket: ClientSocket, conversation: number, after: number, limit?: number): Promise<ConversationSyncResult> {
  const ack = await emitWithAck<Ack<ConversationSyncResult>>(socket, 'sync_conversation', { conversation_id: conversation, after, ...(limit === undefined ? {} : { limit }) });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}
/** Where the other person has read, as `viewer`'s catch-up of the conversation says it. */
const seenBy = async (viewer: ClientSocket, conversation: number) => (await syncConversation(viewer, conversation, 0)).seen;

describe('read receipts', () => {
  it('tells the sender when their messages were read, live and in the payloads', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const first = await store(ann, ben);
    const second = await store(ann, ben);
    const conversation = first.conversation_id;
    const [annTab, benTab, benOther] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(ben)]);
    const seen = nextEvent<SeenPayload>(annTab, 'seen');
    const read = nextEvent<AccountItem>(benOther, 'account_item');
    await emitWithAck(benTab, 'read', { conversation_id: conversation });

    const receipt = await seen;
    expect(receipt).toEqual({ conversation_id: conversation, user_id: ben.user.id, seq: second.seq, read_at: expect.stringMatching(/Z$/) });
    expect(await read).toEqual({ seq: 1, conversation_id: conversation, kind: 'read', read_seq: second.seq, unread_count: 0 });
    // Ben's read, as Ann's page says it, covers both her messages.
    const annSees = await thread(ann, conversation);
    expect(annSees.results.map((message) => message.id)).toEqual([second.id, first.id]);
    expect(annSees.seen).toEqual([{ user_id: ben.user.id, seq: second.seq, read_at: receipt.read_at }]);
    // A list row carries no receipt: the message it shows is one that read covers.
    const list = (await api<ConversationSummaryPage>(t.url, '/c', { token: ann.bearer })).body;
    expect(list.results[0]?.last_message).toMatchObject({ id: second.id, seq: receipt.seq });
  });

  it('off on either side: no receipt is sent or shown, and reads made meanwhile never show later', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const early = await store(ann, ben, 'read while receipts are on');
    const conversation = early.conversation_id;
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    await emitWithAck(benTab, 'read', { conversation_id: conversation });
    expect((await thread(ann, conversation)).seen).toEqual([{ user_id: ben.user.id, seq: early.seq, read_at: expect.any(String) }]);
    expect(await seenBy(annTab, conversation)).toEqual([{ user_id: ben.user.id, seq: early.seq, read_at: expect.any(String) }]);

    // Ben turns them off: Ann no longer sees even the earlier receipt.
    expect((await setReceipts(ben, false)).body).toMatchObject({ read_receipts: false });
    expect((await thread(ann, conversation)).seen).toEqual([]);
    expect(await seenBy(annTab, conversation)).toEqual([]);
    const annHeard = record(annTab, 'seen');
    const late = await store(ann, ben, 'read while receipts are off');
    await emitWithAck(benTab, 'read', { conversation_id: conversation });
    // Ben's own devices still learn the read; Ben's own position still covers both messages.
    expect((await thread(ben, conversation)).read_seq).toBe(late.seq);
    await emitWithAck(annTab, 'typing', { conversation_id: conversation, typing: false }); // a round trip: anything for Ann has arrived
    expect(annHeard).toEqual([]);

    // Back on: the early read shows again, the one made while off never does.
    await setReceipts(ben, true);
    const annSees = await thread(ann, conversation);
    expect(annSees.results.map((message) => message.id)).toEqual([late.id, early.id]);
    expect(annSees.seen).toEqual([{ user_id: ben.user.id, seq: early.seq, read_at: expect.any(String) }]);
    expect(await seenBy(annTab, conversation)).toEqual([{ user_id: ben.user.id, seq: early.seq, read_at: expect.any(String) }]);

    // Ann's own setting hides them from her the same way, and her catch-up leaves them out.
    await setReceipts(ann, false);
    expect((await thread(ann, conversation)).seen).toEqual([]);
    expect(await syncConversation(annTab, conversation, 0)).toMatchObject({ seen: [], through: late.seq, last_seq: late.seq });
  });

  it('sends no receipt across a block, either way, and the read still counts for the reader', async () => {
    const [blocker, other] = await Promise.all([signIn(t.url, 'Blocker'), signIn(t.url, 'Other')]);
    const fromOther = await store(other, blocker, 'before the block');
    const fromBlocker = await store(blocker, other, 'also before');
    const conversation = fromOther.conversation_id;
    expect((await api(t.url, `/users/${other.user.id}/block`, { method: 'PUT', token: blocker.bearer })).status).toBe(200);
    const [blockerTab, otherTab] = await Promise.all([tabs.open(blocker), tabs.open(other)]);
    const heard = (tab: ClientSocket) => ({ items: record(tab, 'account_item'), seen: record(tab, 'seen') });
    const blockerHeard = heard(blockerTab);
    const otherHeard = heard(otherTab);

    // The blocked person reads the blocker's earlier message, and the blocker reads theirs.
    expect(await emitWithAck(otherTab, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    await emitWithAck(blockerTab, 'read', { conversation_id: conversation });
    await emitWithAck(blockerTab, 'typing', { conversation_id: conversation, typing: false }); // round trips: anything sent has arrived
    await emitWithAck(otherTab, 'typing', { conversation_id: conversation, typing: false });
    for (const tab of [blockerHeard, otherHeard]) {
      expect(tab.items.map((item) => item.kind)).toEqual(['read']);
      expect(tab.seen).toEqual([]);
    }
    // Unblocked later, the reads made meanwhile never show as seen.
    await api(t.url, `/users/${other.user.id}/block`, { method: 'DELETE', token: blocker.bearer });
    // Neither read shows as seen to the other; each still counts for its reader, past the other's message.
    const [blockerSees, otherSees] = [await thread(blocker, conversation), await thread(other, conversation)];
    expect([blockerSees.seen, otherSees.seen]).toEqual([[], []]);
    expect(blockerSees.read_seq).toBeGreaterThanOrEqual(fromOther.seq);
    expect(otherSees.read_seq).toBeGreaterThanOrEqual(fromBlocker.seq);
    expect([await seenBy(blockerTab, conversation), await seenBy(otherTab, conversation)]).toEqual([[], []]);
  });
});

describe('catch-up with changes', () => {
  it('merges messages and changes by seq, leaves out what the account deleted for itself, and accounts for every seq', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const one = await store(ben, ann, 'one'); // 1
    const two = await store(ben, ann, 'two'); // 2
    const conversation = one.conversation_id;
    const change = async (socket: ClientSocket, event: 'react' | 'hide', payload: object) => {
      const ack = await emitWithAck<Ack<ChangeResult>>(socket, event, payload);
      if (!('data' in ack)) throw new Error(JSON.stringify(ack));
    };
    await change(benTab, 'react', { message_id: one.id, emoji: '👍', add: true }); // 3
    await change(annTab, 'hide', { message_id: two.id }); // Ann's own item, no seq of the conversation
    await store(ann, ben, 'three'); // 4

    const all = await syncConversation(annTab, conversation, 0);
    expect(all.messages.map((message) => [message.seq, message.text])).toEqual([
      [1, 'one'],
      [4, 'three'],
    ]);
    expect(all.changes.map((change) => [change.seq, change.kind])).toEqual([[3, 'reaction']]);
    expect([all.through, all.last_seq, all.has_more]).toEqual([4, 4, false]);
    // The deletion is Ann's alone: her account's catch-up has it, Ben's conversation still has the message.
    const items = await emitWithAck<Ack<AccountSyncResult>>(annTab, 'sync_account', { cursor: '0.0.0.0' });
    expect(items).toMatchObject({ data: { items: [{ kind: 'hide', conversation_id: conversation, message_id: two.id, preview: { id: one.id } }] } });
    expect((await syncConversation(benTab, conversation, 0)).messages.map((message) => message.seq)).toEqual([1, 2, 4]);

    // Pages of one: the hidden message at seq 2 is accounted for by the `through` that passes it.
    const first = await syncConversation(annTab, conversation, 0, 1);
    expect([first.messages.map((message) => message.seq), first.changes, first.through, first.has_more]).toEqual([[1], [], 1, true]);
    const second = await syncConversation(annTab, conversation, first.through, 1);
    expect([second.messages, second.changes.map((change) => change.seq), second.through, second.has_more]).toEqual([[], [3], 3, true]);
    const third = await syncConversation(annTab, conversation, second.through, 1);
    expect([third.messages.map((message) => message.seq), third.through, third.has_more]).toEqual([[4], 4, false]);
  });
});
