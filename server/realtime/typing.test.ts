import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountSyncResult, Ack, ConversationSummaryPage, ConversationSyncResult } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));
/** A conversation of two people the tests' typists are not. */
let others: number;
beforeAll(async () => {
  const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  others = await talk(ann, ben);
});

const typing = (tab: ClientSocket, payload: unknown) => emitWithAck<Ack<Record<string, never>>>(tab, 'typing', payload);
/** A message from one to the other: the conversation typing is placed in (before it, there is none). */
const talk = async (from: SignedInUser, to: SignedInUser) =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text: 'hello' })).message.conversation_id;

/** Every `typing` the tab hears from now on. */
const hearTyping = (tab: ClientSocket) => record(tab, 'typing');

describe('typing', () => {
  it('reaches every tab of the recipient, started and stopped, and none of the sender’s', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const conversation = await talk(ann, ben);
    const [annTab, annOther, benTab1, benTab2] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben), tabs.open(ben)]);
    const heardByBen = [benTab1, benTab2].map(hearTyping);
    const heardByAnn = [annTab, annOther].map(hearTyping);

    // Named by the conversation or by the person, it is heard in the conversation.
    expect(await typing(annTab, { conversation_id: conversation, typing: true })).toEqual({ data: {} });
    expect(await typing(annOther, { user_id: ben.user.id, typing: false })).toEqual({ data: {} });
    const started = { conversation_id: conversation, user_id: ann.user.id, typing: true };
    await expect.poll(() => heardByBen).toEqual([
      [started, { ...started, typing: false }],
      [started, { ...started, typing: false }],
    ]);
    expect(heardByAnn).toEqual([[], []]);
  });

  it('is never stored: it begins no conversation, and adds no message, seq or unread count to one', async () => {
    const [ann, ben, cat] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben'), signIn(t.url, 'Cat')]);
    const conversation = await talk(ann, ben);
    const [annTab, benTab, catTab] = await Promise.all([tabs.open(ann), tabs.open(ben), tabs.open(cat)]);
    const counts = [benTab, catTab].map((tab) => record(tab, 'message_count'));
    const catHeard = hearTyping(catTab);

    // To someone not written to yet: acknowledged, and with no conversation to place it in, unheard.
    expect(await typing(annTab, { user_id: cat.user.id, typing: true })).toEqual({ data: {} });
    const heard = nextEvent(benTab, 'typing');
    await typing(annTab, { conversation_id: conversation, typing: true });
    await heard;
    await emitWithAck(catTab, 'sync_account', {}); // a round trip: anything for Cat has arrived
    expect(catHeard).toEqual([]);
    const catList = await api<ConversationSummaryPage>(t.url, '/c', { token: cat.bearer });
    expect(catList.body).toEqual({ results: [], next_cursor: null, account_cursor: expect.any(String) });

    const benList = await api<ConversationSummaryPage>(t.url, '/c', { token: ben.bearer });
    expect(benList.body.results).toEqual([expect.objectContaining({ conversation_id: conversation, last_seq: 1, unread_count: 1 })]);
    const caughtUp = await emitWithAck<Ack<ConversationSyncResult>>(benTab, 'sync_conversation', { conversation_id: conversation, after: 0 });
    expect(caughtUp).toMatchObject({ data: { messages: [{ seq: 1, text: 'hello' }], changes: [], through: 1, last_seq: 1, has_more: false } });
    expect(await emitWithAck<Ack<AccountSyncResult>>(benTab, 'sync_account', { cursor: '0.0.0.0' })).toMatchObject({ data: { items: [] } });
    expect(counts).toEqual([[], []]);
  });

  it('to someone it may not reach (unknown, deactivated) is dropped, acknowledged exactly like a relayed one', async () => {
    const [ann, gone, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Gone'), signIn(t.url, 'Ben')]);
    // Conversations first: protocol 2 hears typing only in one, so without it nothing would be heard anyway.
    const [withGone, withBen] = [await talk(gone, ann), await talk(ben, ann)];
    const goneTab = await tabs.open(gone);
    const heard = hearTyping(goneTab);
    await setUserActive(t.db, gone.user.id, false);
    const annTab = await tabs.open(ann);
    expect(await typing(annTab, { conversation_id: withGone, typing: true })).toEqual({ data: {} });
    expect(await typing(annTab, { user_id: gone.user.id, typing: true })).toEqual({ data: {} });
    expect(await typing(annTab, { user_id: 2_000_000_000, typing: true })).toEqual({ data: {} });
    // A barrier: a typing signal the same socket relays afterwards has arrived, so the dropped one would have.
    const benTab = await tabs.open(ben);
    const relayed = nextEvent(benTab, 'typing');
    await typing(annTab, { conversation_id: withBen, typing: true });
    await relayed;
    expect(heard).toEqual([]);
  });

  it('to someone who blocked the sender, or whom the sender blocked, is dropped, with the ack a relayed one gets', async () => {
    const people = await Promise.all(['Ann', 'Blocker', 'Blocked', 'Ben'].map((name) => signIn(t.url, name)));
    const [ann, blocker, blocked, ben] = people as [SignedInUser, SignedInUser, SignedInUser, SignedInUser];
    // They have written to Ann before, so a relayed signal would be placed in their conversation.
    // ("Who can message me" shuts out only someone with no conversation, where nothing is relayed
    // anyway: can-signal.test.ts checks that refusal.)
    const [withBlocker, withBlocked, withBen] = [await talk(blocker, ann), await talk(blocked, ann), await talk(ben, ann)];
    const block = (by: SignedInUser, whom: SignedInUser) => api(t.url, `/users/${whom.user.id}/block`, { method: 'PUT', token: by.bearer });
    expect((await block(blocker, ann)).status).toBe(200);
    expect((await block(ann, blocked)).status).toBe(200);
    const targets = await Promise.all([tabs.open(blocker), tabs.open(blocked)]);
    const heard = targets.map(hearTyping);
    const annTab = await tabs.open(ann);
    for (const payload of [{ conversation_id: withBlocker }, { conversation_id: withBlocked }, { user_id: blocked.user.id }]) {
      expect(await typing(annTab, { ...payload, typing: true })).toEqual({ data: {} });
    }
    // A barrier: a signal relayed afterwards by the same socket has arrived, so the dropped ones would have.
    const benTab = await tabs.open(ben);
    const relayed = nextEvent(benTab, 'typing');
    await typing(annTab, { conversation_id: withBen, typing: true });
    await relayed;
    expect(heard).toEqual([[], []]);
  });

  it.each([
    ['to yourself', (self: number) => ({ user_id: self, typing: true }), /^user_id: /],
    ['without a flag', () => ({ conversation_id: 5 }), /^typing: /],
    ['with a string flag', () => ({ conversation_id: 5, typing: 'yes' }), /^typing: /],
    ['with an extra field', () => ({ conversation_id: 5, typing: true, from: 1 }), /^from: |Unrecognized/],
    ['with a bad id', () => ({ conversation_id: -1, typing: true }), /^conversation_id: /],
    ['to no one', () => ({ typing: true }), /conversation_id or user_id/],
    ['to a conversation and a person at once', () => ({ conversation_id: 5, user_id: 5, typing: true }), /conversation_id or user_id/],
    ['in a conversation you are not in', () => ({ conversation_id: others, typing: true }), /^conversation_id: Conversation not found\.$/],
    ['in a conversation that does not exist', () => ({ conversation_id: 2_000_000_000, typing: true }), /^conversation_id: Conversation not found\.$/],
  ])('refuses a signal %s with a field error', async (_label, payload, pattern) => {
    const ann = await signIn(t.url, 'Ann');
    const tab = await tabs.open(ann);
    expect(await typing(tab, payload(ann.user.id))).toEqual({ error: { non_field_errors: [expect.stringMatching(pattern)] } });
  });

  it('needs init first', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const early = await tabs.open(ann, { init: false });
    expect(await typing(early, { user_id: ben.user.id, typing: true })).toEqual({ error: { msg: 'Send init before other events.' } });
  });
});
