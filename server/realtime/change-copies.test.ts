// One seq, one change: the copies of a change a client can meet (its live push, the ack of the tab
// that made it, and the catch-up after a reconnect or a gap) are the same JSON, key order and
// nested objects included. A client (the fault test's among them) that compares the copies of a
// seq it already holds must find nothing to tell them apart (docs/DELIVERY.md, "Changes to
// messages"). A change to a message is its conversation's (`message_change`, `sync_conversation`),
// the same for every member; a read or a deletion for oneself is the account's own item
// (`account_item`, `sync_account`); a receipt is `seen`, and `sync_conversation` says it again
// (docs/DELIVERY.md, "Conversation seqs").
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { AccountSyncResult, Ack, ChangeResult, ConversationSyncResult, ServerToClientEvents } from '../../lib/contract';
import { directConversationId, insertMessage } from '../../testing/database';
import { signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());

const store = async (from: SignedInUser, to: SignedInUser, text: string) =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;

async function ask<T>(socket: ClientSocket, event: string, payload: object): Promise<T> {
  const ack = await emitWithAck<Ack<T>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}
const act = async (socket: ClientSocket, event: string, payload: object) => (await ask<ChangeResult>(socket, event, payload)).change;

/** Every push of `event` the tab receives from now on, as JSON text. */
const pushed = (socket: ClientSocket, event: keyof ServerToClientEvents): unknown[] => record(socket, event);
const json = (copies: readonly unknown[]) => copies.map((copy) => JSON.stringify(copy));

it('sends every kind of change live, in its ack and through sync as one and the same JSON', async () => {
  const [ann, ben] = await Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
  const reacted = await store(ben, ann, 'to react to');
  const edited = await store(ann, ben, 'to edit');
  const unsent = await store(ann, ben, 'to unsend');
  const hidden = await store(ben, ann, 'to delete for me');
  await store(ben, ann, 'the preview once the other is hidden');
  const conversation = await directConversationId(t.db, ann.user.id, ben.user.id);
  const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
  const live = (tab: ClientSocket) => ({ changes: pushed(tab, 'message_change'), items: pushed(tab, 'account_item'), seen: pushed(tab, 'seen') });
  const annLive = live(annTab);
  const benLive = live(benTab);

  const changes = [
    await act(annTab, 'react', { message_id: reacted.id, emoji: '👍', add: true }),
    await act(annTab, 'edit', { message_id: edited.id, text: 'edited' }),
    await act(annTab, 'unsend', { message_id: unsent.id }),
  ];
  const hide = await act(annTab, 'hide', { message_id: hidden.id }); // Ann's item: a nested preview and a count
  await ask(benTab, 'read', { conversation_id: conversation }); // an item for Ben, a receipt (seen) for Ann
  await ask(annTab, 'read', { conversation_id: conversation });

  const count = (pushes: ReturnType<typeof live>) => [pushes.changes.length, pushes.items.length, pushes.seen.length];
  await expect.poll(() => count(annLive)).toEqual([3, 2, 1]);
  await expect.poll(() => count(benLive)).toEqual([3, 1, 1]);

  // A change to a message: the ack, both members' pushes and both members' catch-up.
  const stream = (socket: ClientSocket) => ask<ConversationSyncResult>(socket, 'sync_conversation', { conversation_id: conversation, after: 0 });
  const [annStream, benStream] = [await stream(annTab), await stream(benTab)];
  expect(annStream.changes.map((change) => change.kind)).toEqual(['reaction', 'edit', 'unsend']);
  for (const copies of [changes, annLive.changes, benLive.changes, benStream.changes]) expect(json(copies)).toEqual(json(annStream.changes));

  // The account's own items: the ack of a hide, the pushes to its devices, and its catch-up.
  const items = async (socket: ClientSocket) => (await ask<AccountSyncResult>(socket, 'sync_account', { cursor: '0.0.0.0' })).items;
  const [annItems, benItems] = [await items(annTab), await items(benTab)];
  expect(annItems.map((item) => item.kind)).toEqual(['hide', 'read']);
  expect(json(annLive.items)).toEqual(json(annItems));
  expect(json([hide])).toEqual(json(annItems.slice(0, 1)));
  expect(json(benLive.items)).toEqual(json(benItems));

  // A receipt: the same words live as in the catch-up's `seen`, there without the conversation it is in.
  for (const [receipts, readerStream] of [[annLive.seen, annStream], [benLive.seen, benStream]] as const) {
    const { conversation_id: receiptConversation, ...receipt } = receipts[0] as { conversation_id: number };
    expect(receiptConversation).toBe(conversation);
    expect(json([receipt])).toEqual(json(readerStream.seen));
  }
});
