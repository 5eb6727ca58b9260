// Conversation rows have no foreign keys (server/db/tables/conversations.ts says why): the batches
// are what keep heads, members and list rows pointing at real users and at their newest message.
// These tests hold them to that, through refusals, blocks and account deletion, including a
// deletion racing a batch (testing/conversation-model.ts has the model's rules).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversationModelFaults } from '../../testing/conversation-model';
import { testDatabase } from '../../testing/test-database';
import { deleteAccount } from './account-deletion';
import { blockUser } from './blocks';
import { setMuted } from './conversations';
import { applyChanges } from './delivery/change-batch';
import type { ChangeRequest } from './delivery/changes/plan';
import { storeMessages } from './delivery/message-batch';
import type { NewMessage } from './delivery/message-payload';
import { rows } from './engine/raw-rows';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();

let counter = 0;

const newUser = () => database.newUser('C');
const msg = (senderId: number, recipientId: number): NewMessage => ({ senderId, recipientId, clientId: `c-${++counter}`, text: `text ${counter}` });
const kinds = (outcomes: Awaited<ReturnType<typeof storeMessages>>) => outcomes.map((o) => ('stored' in o ? 'stored' : o.refused));

/** Every list row whose account or other person does not exist. */
const broken = () =>
  rows<Record<string, unknown>>(
    database.db,
    sql`select a.user_id, a.conversation_id, a.peer_id from account_conversations a
      left join users u on u.id = a.user_id
      left join users p on p.id = a.peer_id
      where u.id is null or (a.peer_id is not null and p.id is null)`,
  );

it('keeps every conversation on real users and at its newest message through refusals, blocks and deletions', async () => {
  const [a, b, c, d] = [await newUser(), await newUser(), await newUser(), await newUser()];
  expect(kinds(await storeMessages(database.db, [msg(a, b), msg(b, a), msg(a, c), msg(d, a)]))).toEqual(['stored', 'stored', 'stored', 'stored']);

  await deleteAccount(database.db, b);
  await blockUser(database.db, c, a);
  expect(
    kinds(await storeMessages(database.db, [msg(a, b), msg(a, c), msg(c, a), msg(a, 2_000_000_000), msg(2_000_000_001, a), msg(a, a), msg(a, d)])),
  ).toEqual(['recipient', 'not_allowed', 'not_allowed', 'recipient', 'sender', 'recipient', 'stored']);

  expect(await broken()).toEqual([]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
  // The deleted account's row is kept, as having left.
  const own = await rows<{ user_id: number }>(database.db, sql`select user_id from account_conversations where user_id in (${a}, ${b}, ${c}, ${d}) and left_at is null`);
  expect(own.map((row) => Number(row.user_id)).sort((x, y) => x - y)).toEqual([a, a, a, c, d].sort((x, y) => x - y));
});

it('a deletion racing a batch to or from that account leaves no row of the deleted account', async () => {
  const pairs = await Promise.all(Array.from({ length: 5 }, async () => [await newUser(), await newUser()] as const));
  await Promise.all(
    pairs.flatMap(([sender, doomed]) => [
      deleteAccount(database.db, doomed),
      storeMessages(database.db, [msg(sender, doomed), msg(sender, doomed)]),
      storeMessages(database.db, [msg(doomed, sender)]),
    ]),
  );
  expect(await broken()).toEqual([]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

// Each pair's direct conversation, by its two people (docs/design/conversations.md, 2.1).
const conversationOf = async (a: number, b: number) =>
  (
    await rows<{ id: number; last_seq: number; last_message_id: number }>(
      database.db,
      sql`select id::int, last_seq::int, last_message_id::int from conversations_v2
        where kind = 'direct' and direct_low = ${Math.min(a, b)} and direct_high = ${Math.max(a, b)}`,
    )
  )[0];
/** A read of the direct conversation of `actorId` and `peerId`, up to `upTo` (null: all). */
const readOf = async (actorId: number, peerId: number, upTo: number | null): Promise<ChangeRequest> => ({
  kind: 'read',
  actorId,
  conversationId: (await conversationOf(actorId, peerId))!.id,
  upTo,
});
const seqsOf = async (conversationId: number) =>
  (await rows<{ client_id: string; seq: number }>(database.db, sql`select client_id, seq::int from messages where conversation_id = ${conversationId} order by seq`)).map(
    (row) => `${row.client_id}@${row.seq}`,
  );

it('numbers each pair\'s messages in its one direct conversation, created with its first message, the head at the newest', async () => {
  const [a, b, c] = [await newUser(), await newUser(), await newUser()];
  const first = msg(a, b);
  // A batch: the pair's first messages both ways, a repeat (no seq of its own), another pair, a refusal.
  const batch = [first, msg(b, a), { ...first }, msg(a, c), msg(a, a)];
  expect(kinds(await storeMessages(database.db, batch))).toEqual(['stored', 'stored', 'stored', 'stored', 'recipient']);
  const ab = await conversationOf(a, b);
  const ac = await conversationOf(a, c);
  expect(await seqsOf(ab!.id)).toEqual([`${batch[0]!.clientId}@1`, `${batch[1]!.clientId}@2`]);
  expect(await seqsOf(ac!.id)).toEqual([`${batch[3]!.clientId}@1`]);

  // Later batches continue each conversation where it stood; a refused message takes no seq.
  await blockUser(database.db, c, a);
  const later = [msg(b, a), msg(a, c), msg(a, b)];
  expect(kinds(await storeMessages(database.db, later))).toEqual(['stored', 'not_allowed', 'stored']);
  expect(await seqsOf(ab!.id)).toEqual([`${batch[0]!.clientId}@1`, `${batch[1]!.clientId}@2`, `${later[0]!.clientId}@3`, `${later[2]!.clientId}@4`]);
  expect(await conversationOf(a, b)).toMatchObject({ id: ab!.id, last_seq: 4 });
  expect(await conversationOf(a, c)).toMatchObject({ id: ac!.id, last_seq: 1 });

  // Both members, each with a list row naming the other; only a sender "wrote".
  expect(
    await rows(database.db, sql`select m.user_id, m.wrote, a.peer_id from conversation_members m
      join account_conversations a on a.user_id = m.user_id and a.conversation_id = m.conversation_id
      where m.conversation_id = ${ac!.id} order by m.user_id`),
  ).toEqual([
    { user_id: a, wrote: true, peer_id: c },
    { user_id: c, wrote: false, peer_id: a },
  ]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('a sender who had read everything has read what they send; one with something unread keeps their place', async () => {
  const [a, b] = [await newUser(), await newUser()];
  const readSeqs = async () => {
    const { id } = (await conversationOf(a, b))!;
    const found = await rows<{ user_id: number; read_seq: number }>(database.db, sql`select user_id, read_seq::int from conversation_members where conversation_id = ${id}`);
    return Object.fromEntries(found.map((row) => [row.user_id === a ? 'a' : 'b', row.read_seq]));
  };
  // The first message, and a second: a's position follows; b has both to read.
  await storeMessages(database.db, [msg(a, b)]);
  expect(await readSeqs()).toEqual({ a: 1, b: 0 });
  await storeMessages(database.db, [msg(a, b)]);
  expect(await readSeqs()).toEqual({ a: 2, b: 0 });
  // b answers without reading: b's two unread stay unread, so b's place stays.
  await storeMessages(database.db, [msg(b, a)]);
  expect(await readSeqs()).toEqual({ a: 2, b: 0 });
  // a has b's message to read: a's next message leaves a's place too.
  await storeMessages(database.db, [msg(a, b)]);
  expect(await readSeqs()).toEqual({ a: 2, b: 0 });
  // Reading reads a's own message after b's too; from there, a's next message is read with it.
  await applyChanges(database.db, [await readOf(a, b, null)]);
  expect(await readSeqs()).toEqual({ a: 4, b: 0 });
  await storeMessages(database.db, [msg(a, b)]);
  expect(await readSeqs()).toEqual({ a: 5, b: 0 });
  // Both writing in one batch: neither place moves (never wrong: counts leave one's own out).
  await applyChanges(database.db, [await readOf(b, a, null)]);
  expect(await readSeqs()).toEqual({ a: 5, b: 5 });
  await storeMessages(database.db, [msg(a, b), msg(b, a)]);
  expect(await readSeqs()).toEqual({ a: 5, b: 5 });
  // Reading up to a message reads up to it, one's own included, no further.
  await storeMessages(database.db, [msg(a, b)]);
  const [upTo] = await storeMessages(database.db, [msg(b, a)]);
  await storeMessages(database.db, [msg(a, b)]);
  await applyChanges(database.db, [await readOf(b, a, 'stored' in upTo! ? upTo.stored.message.id : 0)]);
  expect(await readSeqs()).toEqual({ a: 5, b: 9 });
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('first messages crossing between two people end in one conversation', async () => {
  const pairs = await Promise.all(Array.from({ length: 4 }, async () => [await newUser(), await newUser()] as const));
  await Promise.all(pairs.flatMap(([x, y]) => [storeMessages(database.db, [msg(x, y)]), storeMessages(database.db, [msg(y, x)]), storeMessages(database.db, [msg(x, y)])]));
  for (const [x, y] of pairs) expect((await conversationOf(x, y))?.last_seq).toBe(3);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('a deleted account leaves its conversations where they stood, and nothing more is numbered for it', async () => {
  const [a, b] = [await newUser(), await newUser()];
  await storeMessages(database.db, [msg(a, b), msg(b, a)]);
  await deleteAccount(database.db, b);
  // Neither to it nor from it (a batch that waited for the deletion's lock finds the tombstone).
  expect(kinds(await storeMessages(database.db, [msg(a, b), msg(b, a)]))).toEqual(['recipient', 'sender']);
  const ab = await conversationOf(a, b);
  expect(
    await rows(database.db, sql`select m.user_id, m.left_seq::int, m.left_reason, a.left_at is not null as listed_left from conversation_members m
      join account_conversations a on a.user_id = m.user_id and a.conversation_id = m.conversation_id
      where m.conversation_id = ${ab!.id} order by m.user_id`),
  ).toEqual([
    { user_id: a, left_seq: null, left_reason: null, listed_left: false },
    { user_id: b, left_seq: 2, left_reason: 'deleted', listed_left: true },
  ]);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('a reaction, an edit and an unsend each take the conversation\'s next seq once, for both; a read, a hide and a mute are the actor\'s own items', async () => {
  const [a, b] = [await newUser(), await newUser()];
  const ids = (await storeMessages(database.db, [msg(a, b), msg(a, b), msg(a, b), msg(b, a)])).map((outcome) => ('stored' in outcome ? outcome.stored.message.id : 0));
  const [m1, m2, m3, m4] = ids as [number, number, number, number];
  const changes: ChangeRequest[] = [
    { kind: 'react', actorId: b, messageId: m1, emoji: '👍', add: true },
    { kind: 'edit', actorId: a, messageId: m2, text: 'edited', windowMs: 60_000 },
    { kind: 'unsend', actorId: a, messageId: m3, windowMs: 60_000 },
    await readOf(b, a, m1),
    { kind: 'hide', actorId: a, messageId: m4 },
  ];
  expect((await applyChanges(database.db, changes)).every((outcome) => 'pushes' in outcome)).toBe(true);
  const ab = (await conversationOf(a, b))!;
  // The item for protocol 2's devices: written once, not again when it was already so.
  expect(await setMuted(database.db, a, b, true)).toEqual({ conversationId: ab.id, peerId: b, item: { seq: 2, conversation_id: ab.id, kind: 'muted', muted: true } });
  expect(await setMuted(database.db, a, b, true)).toEqual({ conversationId: ab.id, peerId: b, item: null });

  expect(await rows(database.db, sql`select seq::int, message_id::int, actor_id, kind from conversation_events where conversation_id = ${ab.id} order by seq`)).toEqual([
    { seq: 5, message_id: m1, actor_id: b, kind: 'reaction' },
    { seq: 6, message_id: m2, actor_id: a, kind: 'edit' },
    { seq: 7, message_id: m3, actor_id: a, kind: 'unsend' },
  ]);
  expect(await conversationOf(a, b)).toMatchObject({ last_seq: 7 });
  expect(await rows(database.db, sql`select id::int, version::int from messages where conversation_id = ${ab.id} order by seq`)).toEqual([
    { id: m1, version: 5 },
    { id: m2, version: 6 },
    { id: m3, version: 7 },
    { id: m4, version: 4 },
  ]);
  // b read up to m1 (m2 still unread, m3 unsent): the position, the receipt, one item for b's devices.
  expect(await rows(database.db, sql`select user_id, read_seq::int, seen_seq::int, muted from conversation_members where conversation_id = ${ab.id} order by user_id`)).toEqual([
    { user_id: a, read_seq: 0, seen_seq: 0, muted: true },
    { user_id: b, read_seq: 1, seen_seq: 1, muted: false },
  ]);
  // A mute that changes nothing is no item.
  expect(await rows(database.db, sql`select user_id, seq::int, kind, state from account_events where conversation_id = ${ab.id} order by user_id, seq`)).toEqual([
    { user_id: a, seq: 1, kind: 'hide', state: { message_id: m4, preview_id: m3, unread_count: 0 } },
    { user_id: a, seq: 2, kind: 'muted', state: { muted: true } },
    { user_id: b, seq: 1, kind: 'read', state: { read_seq: 1, unread_count: 1 } },
  ]);

  // The next message follows the changes.
  await storeMessages(database.db, [msg(b, a)]);
  expect(await conversationOf(a, b)).toMatchObject({ last_seq: 8 });
  expect(await conversationModelFaults(database.db)).toEqual([]);
});

it('the model check names the rule a row breaks', async () => {
  const [a, b] = [await newUser(), await newUser()];
  const [sent] = await storeMessages(database.db, [msg(a, b)]);
  const id = 'stored' in sent! ? sent.stored.message.id : 0;
  await applyChanges(database.db, [{ kind: 'react', actorId: b, messageId: id, emoji: '🎉', add: true }]);
  const { id: conversation } = (await conversationOf(a, b))!;
  const faultsAfter = async (tamper: ReturnType<typeof sql>, undo: ReturnType<typeof sql>) => {
    await database.db.execute(tamper);
    const found = await conversationModelFaults(database.db);
    await database.db.execute(undo);
    return found.map((fault) => fault.fault);
  };
  expect(await faultsAfter(sql`update conversation_members set seen_seq = 1 where conversation_id = ${conversation} and user_id = ${b}`, sql`update conversation_members set seen_seq = 0 where conversation_id = ${conversation} and user_id = ${b}`)).toEqual([
    'receipt not a message read',
  ]);
  expect(await faultsAfter(sql`update messages set ordinal = 2 where id = ${id}`, sql`update messages set ordinal = 1 where id = ${id}`)).toEqual([
    'ordinals not 1…n',
  ]);
  expect(await faultsAfter(sql`update conversations_v2 set message_count = 2 where id = ${conversation}`, sql`update conversations_v2 set message_count = 1 where id = ${conversation}`)).toEqual([
    'head count not its messages',
    // The reader's count moves with it (the count at the newest message is the head's); the
    // sender's does not: they have read up to their own message, so nothing is counted.
    'unread from ordinals differs from the messages',
  ]);
  expect(await faultsAfter(sql`update messages set version = 1 where id = ${id}`, sql`update messages set version = 2 where id = ${id}`)).toEqual(['message version not its latest change']);
  expect(await faultsAfter(sql`update messages set reactions = '[]' where id = ${id}`, sql`update messages set reactions = ${JSON.stringify([{ emoji: '🎉', user_ids: [b] }])}::jsonb where id = ${id}`)).toEqual([
    'message differs from its latest change',
  ]);
  expect(await faultsAfter(sql`update conversations_v2 set last_seq = 1 where id = ${conversation}`, sql`update conversations_v2 set last_seq = 2 where id = ${conversation}`)).toEqual(['head not at its newest']);
  expect(await faultsAfter(sql`update users set account_seq = 1 where id = ${b}`, sql`update users set account_seq = 0 where id = ${b}`)).toEqual(['account items not 1…account_seq']);
  expect(await conversationModelFaults(database.db)).toEqual([]);
});
