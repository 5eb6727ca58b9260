// The conversation model's expand migration (0017) on a database the previous release wrote, on
// both engines: the rows are written by the pair model's own code (this release still runs it), the
// migration adds the conversation model beside it, and what the pair model answers (order, unread
// counts, receipts, mutes, reactions, hidden messages, a deleted account) is what the new rows say.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startEngine, type Engine } from '../../testing/engines';
import { MIGRATIONS, migrationsBefore } from '../../testing/migrations';
import { deleteAccount } from './account-deletion';
import { setMuted } from './conversations';
import { applyChanges } from './delivery/change-batch';
import type { ChangeRequest } from './delivery/changes/plan';
import { storeMessages } from './delivery/message-batch';
import { openDatabase, type Db } from './engine/open-database';
import { rows } from './engine/raw-rows';

let dir: string;
let before: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-conversations-migration-'));
  before = await migrationsBefore('_conversations_expand', path.join(dir, 'before'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const LONG_AGO = 24 * 60 * 60 * 1000;
let sent = 0;

/** Stores messages as the previous release did, one batch each, and answers their ids. */
async function send(db: Db, ...pairs: [number, number][]): Promise<number[]> {
  const ids: number[] = [];
  for (const [senderId, recipientId] of pairs) {
    const [outcome] = await storeMessages(db, [{ senderId, recipientId, clientId: `m-${++sent}`, text: `message ${sent}` }]);
    if (!outcome || !('stored' in outcome)) throw new Error(`not stored: ${JSON.stringify(outcome)}`);
    ids.push(outcome.stored.message.id);
  }
  return ids;
}

async function change(db: Db, request: ChangeRequest): Promise<void> {
  const [outcome] = await applyChanges(db, [request]);
  if (!outcome || 'refused' in outcome || 'error' in outcome) throw new Error(`change refused: ${JSON.stringify(outcome)}`);
}

/** What the pair model holds, as the previous release reads it. */
const pairModel = async (db: Db) => ({
  messages: await rows(db, sql`select id, sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, read_at, seen_at, edited_at, deleted_at, reactions, sender_version, recipient_version from messages order by id`),
  conversations: await rows<{ user_id: number; peer_id: number; unread_count: number; muted: boolean }>(db, sql`select user_id, peer_id, last_message_id, unread_count, muted from conversations order by user_id, peer_id`),
  reactions: await rows(db, sql`select message_id, user_id, emoji from message_reactions order by message_id, user_id, emoji`),
  hidden: await rows(db, sql`select user_id, message_id from message_hidden order by user_id, message_id`),
  lastSeqs: await rows(db, sql`select id, last_seq from users order by id`),
});

describe.each(ENGINES)('on %s', (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine(name, path.join(dir, name));
  }, 120_000);
  afterAll(() => engine?.stop());

  it('gives every pair with messages a direct conversation whose members, positions and heads answer as the pairs did', { timeout: 240_000 }, async () => {
    const options = await engine.fresh();
    const old = await openDatabase({ ...options, migrationsFolder: before });
    const { db } = old;
    await db.execute(sql`insert into users (firebase_uid, username, social_type) values
      ('a', 'Ana', 'google'), ('b', 'Bo', 'google'), ('c', 'Cy', 'google'), ('d', 'Di', 'google'), ('e', 'Ed', 'google'), ('f', 'Fay', 'google')`);
    const [ana, bo, cy, di, ed] = [1, 2, 3, 4, 5];
    await db.execute(sql`update users set read_receipts = false where id = ${cy}`);

    // Ana and Bo: Bo reads part way (one of Ana's stays unread), Ana reads all of Bo's with receipts
    // on both sides; a reaction, an edit, a message Bo hides for himself, one Ana unsends unread.
    const [a1, a2] = await send(db, [ana, bo], [ana, bo], [ana, bo]);
    const [b1, b2] = await send(db, [bo, ana], [bo, ana]);
    await change(db, { kind: 'read', actorId: bo, peerId: ana, upTo: a2! });
    await change(db, { kind: 'read', actorId: ana, peerId: bo, upTo: null });
    await change(db, { kind: 'react', actorId: bo, messageId: a1!, emoji: '👍', add: true });
    await change(db, { kind: 'edit', actorId: ana, messageId: a2!, text: 'edited', windowMs: LONG_AGO });
    await change(db, { kind: 'hide', actorId: bo, messageId: b1! });
    const [a4, a5] = await send(db, [ana, bo], [ana, bo]);
    await change(db, { kind: 'unsend', actorId: ana, messageId: a4!, windowMs: LONG_AGO });
    // Bo hides one of Ana's while it is unread, then a newer one arrives: Ana's third and the newest
    // stay unread for him.
    await change(db, { kind: 'hide', actorId: bo, messageId: a5! });
    await send(db, [ana, bo]);

    // Ana and Cy, who has receipts off: read, never seen. Ana mutes Di, whose messages stay unread.
    await send(db, [ana, cy], [cy, ana], [ana, cy]);
    await change(db, { kind: 'read', actorId: cy, peerId: ana, upTo: null });
    await send(db, [di, ana], [di, ana], [ana, di], [di, ana]);
    expect(await setMuted(db, ana, di, true)).toBe(true);
    // Ed writes with Ana and Bo, then deletes his account; Fay never wrote to anyone.
    await send(db, [ed, ana], [ana, ed], [bo, ed]);
    await deleteAccount(db, ed);
    const stored = await pairModel(db);
    await old.close();

    const migrated = await openDatabase({ ...options, migrationsFolder: MIGRATIONS });
    try {
      const { db } = migrated;
      // Nothing of the pair model moved.
      expect(await pairModel(db)).toEqual(stored);

      // One direct conversation per pair, numbered in the order the pairs first wrote.
      const heads = await rows<{ id: number; direct_low: number; direct_high: number }>(db, sql`select id::int, kind, direct_low, direct_high, last_seq::int, last_message_seq::int, last_message_id::int, member_count,
        changed_xid is not null as changed from conversations_v2 order by id`);
      const pairs: [number, number][] = [[ana, bo], [ana, cy], [ana, di], [ana, ed], [bo, ed]];
      expect(heads.map((head) => [head.direct_low, head.direct_high])).toEqual(pairs);
      for (const head of heads) expect(head).toMatchObject({ kind: 'direct', member_count: 2, changed: true });

      // Each conversation's messages are 1…n in id order, each message's version its seq; the head is the newest.
      const messages = await rows<{ id: number; sender_id: number; recipient_id: number; conversation_id: number; seq: number; version: number }>(
        db,
        sql`select id::int, sender_id, recipient_id, conversation_id::int, seq::int, version::int from messages order by id`,
      );
      for (const head of heads) {
        const own = messages.filter((message) => message.conversation_id === head.id);
        expect(own.every((message) => [message.sender_id, message.recipient_id].sort((x, y) => x - y).join() === [head.direct_low, head.direct_high].join())).toBe(true);
        expect(own.map((message) => message.seq)).toEqual(own.map((_, index) => index + 1));
        expect(own.every((message) => message.version === message.seq)).toBe(true);
        expect(head).toMatchObject({ last_seq: own.length, last_message_seq: own.length, last_message_id: own.at(-1)!.id });
      }
      expect(messages.every((message) => message.conversation_id !== null)).toBe(true);

      // Each side's unread count, derived from its position, is the pair model's counter; mutes carried over.
      const derived = await rows<{ user_id: number; peer_id: number; muted: boolean; unread: number }>(db, sql`
        select mb.user_id, ac.peer_id, mb.muted, count(m.id)::int as unread
        from conversation_members mb
        join conversations_v2 c on c.id = mb.conversation_id
        join account_conversations ac on ac.user_id = mb.user_id and ac.conversation_id = mb.conversation_id
        left join messages m on m.conversation_id = mb.conversation_id and m.seq > mb.read_seq and m.seq <= coalesce(mb.left_seq, c.last_seq)
          and m.sender_id <> mb.user_id and m.deleted_at is null
          and not exists (select 1 from message_hidden h where h.user_id = mb.user_id and h.message_id = m.id)
        where mb.left_at is null
        group by mb.user_id, ac.peer_id, mb.muted order by mb.user_id, ac.peer_id`);
      expect(derived).toEqual(stored.conversations.map((row) => ({ user_id: row.user_id, peer_id: row.peer_id, muted: row.muted, unread: row.unread_count })));
      expect(derived.find((row) => row.user_id === bo && row.peer_id === ana)).toMatchObject({ unread: 2 });
      expect(derived.find((row) => row.user_id === ana && row.peer_id === di)).toMatchObject({ unread: 3, muted: true });

      // Receipts: the newest message each member was seen reading, none where receipts were off.
      const members = await rows<{ conversation_id: number; user_id: number }>(db, sql`select conversation_id::int, user_id, role, read_seq::int, seen_seq::int, seen_at is not null as seen, wrote, joined_seq::int, left_seq::int, left_reason
        from conversation_members order by conversation_id, user_id`);
      const seqOf = (id: number) => messages.find((message) => message.id === id)!.seq;
      const member = (conversation: number, user: number) => members.find((row) => row.conversation_id === heads[conversation]!.id && row.user_id === user);
      expect(member(0, bo)).toMatchObject({ role: 'member', read_seq: seqOf(a2!), seen_seq: seqOf(a2!), seen: true, wrote: true, joined_seq: 0, left_seq: null });
      expect(member(0, ana)).toMatchObject({ read_seq: 8, seen_seq: seqOf(b2!), seen: true, wrote: true });
      expect(member(1, cy)).toMatchObject({ read_seq: 3, seen_seq: 0, seen: false, wrote: true });
      expect(member(2, ana)).toMatchObject({ read_seq: 0, wrote: true });
      // The deleted account's memberships ended where the conversations stood; the other side's go on.
      const deletedAt = (await rows<{ deleted_at: unknown }>(db, sql`select deleted_at from users where id = ${ed}`))[0]!.deleted_at;
      expect(member(3, ed)).toMatchObject({ left_seq: 2, left_reason: 'deleted', wrote: true });
      expect(member(4, ed)).toMatchObject({ left_seq: 1, left_reason: 'deleted', wrote: false });
      expect(member(3, ana)).toMatchObject({ left_seq: null, left_reason: null });
      expect(await rows(db, sql`select left_at from account_conversations where user_id = ${ed}`)).toEqual([{ left_at: deletedAt }, { left_at: deletedAt }]);

      // Every account's list names each conversation once, with its peer.
      const lists = await rows(db, sql`select user_id, peer_id, kind from account_conversations order by user_id, peer_id`);
      expect(lists).toEqual(pairs.flatMap(([low, high]) => [{ user_id: low, peer_id: high, kind: 'direct' }, { user_id: high, peer_id: low, kind: 'direct' }])
        .sort((x, y) => x.user_id - y.user_id || x.peer_id - y.peer_id));

      // Reactions and hidden messages name their message's conversation.
      expect(await rows(db, sql`select count(*)::int as wrong from message_reactions r join messages m on m.id = r.message_id where r.conversation_id is distinct from m.conversation_id`)).toEqual([{ wrong: 0 }]);
      expect(await rows(db, sql`select count(*)::int as wrong from message_hidden h join messages m on m.id = h.message_id where h.conversation_id is distinct from m.conversation_id`)).toEqual([{ wrong: 0 }]);
      expect(await rows(db, sql`select count(*)::int as hidden from message_hidden where conversation_id is not null`)).toEqual([{ hidden: 2 }]);
      expect(await rows(db, sql`select max(account_seq)::int as seq from users`)).toEqual([{ seq: 0 }]);
    } finally {
      await migrated.close();
    }
  });
});
