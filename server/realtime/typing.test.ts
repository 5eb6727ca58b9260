import { describe, expect, it } from 'vitest';
import type { Ack, ConversationPage, SyncResult, TypingEventPayload } from '../../lib/contract';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }), { protocol: 1 });

const typing = (tab: ClientSocket, payload: unknown) => emitWithAck<Ack<Record<string, never>>>(tab, 'typing', payload);

describe('typing', () => {
  it('reaches every tab of the recipient, started and stopped, and none of the sender’s', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, annOther, benTab1, benTab2] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben), tabs.open(ben)]);
    const heardByBen = [benTab1, benTab2].map((tab) => record(tab, 'typing'));
    const heardByAnn = [annTab, annOther].map((tab) => record(tab, 'typing'));

    expect(await typing(annTab, { user_id: ben.user.id, typing: true })).toEqual({ data: {} });
    expect(await typing(annOther, { user_id: ben.user.id, typing: false })).toEqual({ data: {} });
    const started: TypingEventPayload = { user_id: ann.user.id, typing: true };
    await expect.poll(() => heardByBen).toEqual([
      [started, { ...started, typing: false }],
      [started, { ...started, typing: false }],
    ]);
    expect(heardByAnn).toEqual([[], []]);
  });

  it('is never stored: no message, no seq, no unread count', async () => {
    const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const counts = record(benTab, 'message_count');
    const heard = nextEvent(benTab, 'typing');
    await typing(annTab, { user_id: ben.user.id, typing: true });
    await heard;
    const list = await api<ConversationPage>(t.url, '/conversations', { token: ben.bearer });
    expect(list.body).toEqual({ results: [], next_cursor: null, last_seq: 0, account_cursor: expect.any(String) });
    expect(await emitWithAck<Ack<SyncResult>>(benTab, 'sync', { after: 0 })).toEqual({ data: { messages: [], changes: [], through: 0, last_seq: 0, has_more: false } });
    expect(counts).toEqual([]);
  });

  it('to someone it may not reach (unknown, deactivated) is dropped, acknowledged exactly like a relayed one', async () => {
    const [ann, gone] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Gone')]);
    const goneTab = await tabs.open(gone);
    const heard = record(goneTab, 'typing');
    await setUserActive(t.db, gone.user.id, false);
    const annTab = await tabs.open(ann);
    expect(await typing(annTab, { user_id: gone.user.id, typing: true })).toEqual({ data: {} });
    expect(await typing(annTab, { user_id: 2_000_000_000, typing: true })).toEqual({ data: {} });
    // A barrier: a typing signal the same socket relays afterwards has arrived, so the dropped one would have.
    const ben = await signIn(t.url, 'Ben');
    const benTab = await tabs.open(ben);
    const relayed = nextEvent(benTab, 'typing');
    await typing(annTab, { user_id: ben.user.id, typing: true });
    await relayed;
    expect(heard).toEqual([]);
  });

  it('to someone who blocked the sender, whom the sender blocked, or whose "who can message me" shuts them out, is dropped', async () => {
    const [ann, blocker, blocked, closed, ben] = (await Promise.all(
      ['Ann', 'Blocker', 'Blocked', 'Closed', 'Ben'].map((name) => signIn(t.url, name)),
    )) as [SignedInUser, SignedInUser, SignedInUser, SignedInUser, SignedInUser];
    const block = (by: SignedInUser, whom: SignedInUser) => api(t.url, `/users/${whom.user.id}/block`, { method: 'PUT', token: by.bearer });
    expect((await block(blocker, ann)).status).toBe(200);
    expect((await block(ann, blocked)).status).toBe(200);
    expect((await api(t.url, '/accounts/settings', { method: 'PATCH', token: closed.bearer, json: { message_policy: 'nobody' } })).status).toBe(200);
    const targets = await Promise.all([tabs.open(blocker), tabs.open(blocked), tabs.open(closed)]);
    const heard = targets.map((tab) => record(tab, 'typing'));
    const annTab = await tabs.open(ann);
    for (const target of [blocker, blocked, closed]) {
      expect(await typing(annTab, { user_id: target.user.id, typing: true })).toEqual({ data: {} });
    }
    // A barrier: a signal relayed afterwards by the same socket has arrived, so the dropped ones would have.
    const benTab = await tabs.open(ben);
    const relayed = nextEvent(benTab, 'typing');
    await typing(annTab, { user_id: ben.user.id, typing: true });
    await relayed;
    expect(heard).toEqual([[], [], []]);
  });

  it.each([
    ['to yourself', (self: number) => ({ user_id: self, typing: true }), /^user_id: /],
    ['without a flag', () => ({ user_id: 5 }), /^typing: /],
    ['with a string flag', () => ({ user_id: 5, typing: 'yes' }), /^typing: /],
    ['with an extra field', () => ({ user_id: 5, typing: true, from: 1 }), /^from: |Unrecognized/],
    ['with a bad id', () => ({ user_id: -1, typing: true }), /^user_id: /],
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
