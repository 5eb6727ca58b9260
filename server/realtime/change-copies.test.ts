// One seq, one change: the copies of a change a client can meet (its live `message_change`, the
// ack of the tab that made it, and `sync` after a reconnect or a gap) are the same JSON, key order
// and nested objects included. A client (the fault test's among them) that compares the copies of
// a seq it already holds must find nothing to tell them apart (docs/DELIVERY.md, "Changes to
// messages").
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Ack, ChangeResult, MessageChange, SyncResult } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });

const store = async (from: SignedInUser, to: SignedInUser, text: string) =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;

async function act(socket: ClientSocket, event: string, payload: object): Promise<MessageChange | null> {
  const ack = await emitWithAck<Ack<ChangeResult | { count: number }>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return 'change' in ack.data ? ack.data.change : null;
}

async function synced(socket: ClientSocket): Promise<MessageChange[]> {
  const ack = await emitWithAck<Ack<SyncResult>>(socket, 'sync', { after: 0 });
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data.changes;
}

it('sends every kind of change live, in its ack and through sync as one and the same JSON', async () => {
  const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  const reacted = await store(ben, ann, 'to react to');
  const edited = await store(ann, ben, 'to edit');
  const unsent = await store(ann, ben, 'to unsend');
  const hidden = await store(ben, ann, 'to delete for me');
  await store(ben, ann, 'the preview once the other is hidden');
  const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
  const live = { ann: record(annTab, 'message_change'), ben: record(benTab, 'message_change') };
  const acked: MessageChange[] = [];
  const keep = (change: MessageChange | null) => change && acked.push(change);

  keep(await act(annTab, 'react', { message_id: reacted.id, emoji: '👍', add: true })); // reaction
  keep(await act(annTab, 'edit', { message_id: edited.id, text: 'edited' })); // edit
  keep(await act(annTab, 'unsend', { message_id: unsent.id })); // unsend, with Ben's unread count
  keep(await act(annTab, 'hide', { message_id: hidden.id })); // hide: a nested preview and a count
  await act(benTab, 'read', { user_id: ann.user.id }); // read for Ben, seen (a receipt) for Ann
  await act(annTab, 'read', { user_id: ben.user.id });

  await expect.poll(() => live.ann.length).toBe(6);
  await expect.poll(() => live.ben.length).toBe(4);
  const kinds = (changes: MessageChange[]) => changes.map((change) => change.kind).sort();
  expect(kinds(live.ann)).toEqual(['edit', 'hide', 'reaction', 'read', 'seen', 'unsend']);
  expect(kinds(live.ben)).toEqual(['edit', 'reaction', 'read', 'unsend']);

  const json = (changes: MessageChange[]) => changes.map((change) => JSON.stringify(change)).sort();
  const annSynced = await synced(annTab);
  const benSynced = await synced(benTab);
  expect(json(live.ann)).toEqual(json(annSynced));
  expect(json(live.ben)).toEqual(json(benSynced));
  expect(acked).toHaveLength(4);
  for (const change of acked) expect(json(annSynced)).toContain(JSON.stringify(change));
});
