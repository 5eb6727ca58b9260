import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { conversationModelFaults } from '../../../testing/conversation-model';
import { directConversationId, insertMessage } from '../../../testing/database';
import { testDatabase } from '../../../testing/test-database';
import { applyChanges, createChangeWriter } from './change-batch';
import { type ChangeOutcome, type ChangeRequest } from './changes/plan';
import { summariseReactions } from './changes/react';
import type { GroupOutcome } from '../engine/group-writer';
import type { Db } from '../engine/open-database';
import { countUnread } from '../messages';
import { messageReactions, messages, uploads } from '../schema';
import { createUpload } from '../uploads';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();
let counter = 0;

const send = async (senderId: number, recipientId: number, extra: { attachmentId?: string } = {}) =>
  (await insertMessage(database.db, { senderId, recipientId, clientId: `cb-${++counter}`, text: `text ${counter}`, ...extra })).message.id;

/** Counts the transactions `work` opens: each change batch takes one connection from the pool. */
async function countTransactions<T>(db: Db, work: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const connect = pool.connect;
  let transactions = 0;
  pool.connect = ((...args: Parameters<pg.Pool['connect']>) => {
    transactions += 1;
    return (connect as (...a: unknown[]) => unknown).apply(pool, args);
  }) as pg.Pool['connect'];
  try {
    return { result: await work(), transactions };
  } finally {
    pool.connect = connect;
  }
}

function written(outcome: GroupOutcome<ChangeOutcome> | undefined) {
  if (!outcome || !('pushes' in outcome)) throw new Error(`not written: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The change every member of the message's conversation gets. */
const sharedChange = (outcome: GroupOutcome<ChangeOutcome> | undefined) => written(outcome).pushes.shared?.change;

describe('applyChanges', () => {
  it('writes changes to different conversations in one transaction, and those to one conversation one after another, in order', async () => {
    const [a, b, c, d] = [await database.newUser(), await database.newUser(), await database.newUser(), await database.newUser()];
    const first = await send(a, b);
    const second = await send(a, b);
    const elsewhere = await send(c, d);
    const requests: ChangeRequest[] = [
      { kind: 'react', actorId: b, messageId: first, emoji: '👍', add: true },
      { kind: 'react', actorId: d, messageId: elsewhere, emoji: '❤️', add: true },
      // The same conversation as the first: a transaction of its own, after it.
      { kind: 'react', actorId: a, messageId: first, emoji: '❤️', add: true },
      // And again: a third.
      { kind: 'edit', actorId: a, messageId: second, text: 'edited', windowMs: 60_000 },
    ];
    const { result, transactions } = await countTransactions(database.db, () => applyChanges(database.db, requests));
    expect(transactions).toBe(3);

    // Each decided against what the one before it left: both reactions are on the message.
    expect(sharedChange(result[2])).toMatchObject({ kind: 'reaction', reactions: [{ emoji: '👍', user_ids: [b] }, { emoji: '❤️', user_ids: [a] }] });
    const [row] = await database.db.select().from(messages).where(eq(messages.id, second));
    expect(row?.text).toBe('edited');
    // The conversation's seqs follow the order asked, without gaps: two messages, then a change each.
    expect([result[0], result[2], result[3]].map((outcome) => sharedChange(outcome)?.seq)).toEqual([3, 4, 5]);
    expect(sharedChange(result[1])?.seq).toBe(2);
    // Its members are both people, whoever acts.
    expect([result[0], result[2]].map((outcome) => written(outcome).pushes.shared?.members.sort())).toEqual([[a, b].sort(), [a, b].sort()]);
    // The message's version is the seq of its latest change.
    expect(row?.version).toBe(5);
  });

  it('keeps each emoji where it was first used by someone still reacting with it, as the stored rows order them', async () => {
    const [a, b] = [await database.newUser(), await database.newUser()];
    const id = await send(a, b);
    for (const [actorId, emoji] of [
      [a, '👍'],
      [b, '❤️'],
      [b, '👍'],
    ] as const) {
      written((await applyChanges(database.db, [{ kind: 'react', actorId, messageId: id, emoji, add: true }]))[0]);
    }
    // 👍 was first used before ❤️; without a's, its first use is b's, after ❤️.
    const [removed] = await applyChanges(database.db, [{ kind: 'react', actorId: a, messageId: id, emoji: '👍', add: false }]);
    const expected = [
      { emoji: '❤️', user_ids: [b] },
      { emoji: '👍', user_ids: [b] },
    ];
    expect(sharedChange(removed)).toMatchObject({ kind: 'reaction', reactions: expected });
    const [row] = await database.db.select({ reactions: messages.reactions }).from(messages).where(eq(messages.id, id));
    expect(row?.reactions).toEqual(expected);
    expect(await database.db.select({ emoji: messageReactions.emoji }).from(messageReactions).where(eq(messageReactions.messageId, id))).toHaveLength(2);
  });

  it('summarises reactions by when they were made, whatever order the rows come in', () => {
    const rows = [
      { emoji: '👍', userId: 1, at: 3_000 },
      { emoji: '❤️', userId: 2, at: 2_000 },
      { emoji: '👍', userId: 2, at: 4_000 },
      { emoji: '😂', userId: 1, at: 2_000 },
      { emoji: '👍', userId: 3, at: 1_000 },
    ];
    const expected = [
      { emoji: '👍', user_ids: [3, 1, 2] },
      { emoji: '😂', user_ids: [1] },
      { emoji: '❤️', user_ids: [2] },
    ];
    expect(summariseReactions(rows)).toEqual(expected);
    expect(summariseReactions([...rows].reverse())).toEqual(expected);
  });

  it('removes a file carried by two messages once both are unsent in one batch', async () => {
    const [a, b, c] = [await database.newUser(), await database.newUser(), await database.newUser()];
    const upload = await createUpload(database.db, { ownerId: a, name: 'a.png', mimeType: 'image/png', size: 1, storageKey: `shared-${++counter}` });
    const toB = await send(a, b, { attachmentId: upload.id });
    const toC = await send(a, c, { attachmentId: upload.id });
    const outcomes = await applyChanges(database.db, [
      { kind: 'unsend', actorId: a, messageId: toB, windowMs: 60_000 },
      { kind: 'unsend', actorId: a, messageId: toC, windowMs: 60_000 },
    ]);
    expect(outcomes.map((outcome) => written(outcome).removedStorageKey)).toEqual([undefined, upload.storageKey]);
    expect(await database.db.select().from(uploads).where(eq(uploads.id, upload.id))).toEqual([]);
  });

  it('keeps the answers of a transaction that committed when a later one of the batch fails', async () => {
    const [a, b] = [await database.newUser(), await database.newUser()];
    const first = await send(a, b);
    const second = await send(a, b);
    // Every script that edits fails, as a dropped connection would make it.
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const connect = pool.connect;
    pool.connect = (async () => {
      const client = await (connect as () => Promise<pg.PoolClient>).call(pool);
      const { query, release } = client;
      client.query = ((text: unknown, ...rest: unknown[]) =>
        typeof text === 'string' && text.includes('execute change_edit')
          ? Promise.reject(new Error('connection lost'))
          : (query as (...a: unknown[]) => unknown).call(client, text, ...rest)) as pg.PoolClient['query'];
      client.release = (...args) => {
        Object.assign(client, { query, release });
        return release.apply(client, args);
      };
      return client;
    }) as unknown as pg.Pool['connect'];
    let outcomes;
    try {
      outcomes = await applyChanges(database.db, [
        { kind: 'react', actorId: b, messageId: first, emoji: '👍', add: true },
        // The same conversation: its own transaction, after the reaction's commit.
        { kind: 'edit', actorId: a, messageId: second, text: 'edited', windowMs: 60_000 },
      ]);
    } finally {
      pool.connect = connect;
    }
    expect(sharedChange(outcomes[0])?.kind).toBe('reaction');
    expect(outcomes[1]).toMatchObject({ retry: 'failed', error: expect.objectContaining({ message: expect.stringContaining('connection lost') }) });
  });

  it('counts a message unread by the member’s position: unsent after its recipient deleted it for themselves, it is not taken off twice', async () => {
    const [a, b] = [await database.newUser(), await database.newUser()];
    const [first, second] = [await send(a, b), await send(a, b)];
    expect(await countUnread(database.db, b)).toBe(2);
    // b deletes the newest for themselves while unread: one less; then a unsends it: nothing more.
    const hidden = written((await applyChanges(database.db, [{ kind: 'hide', actorId: b, messageId: second }]))[0]);
    expect(hidden.pushes.item?.item).toMatchObject({ kind: 'hide', unread_count: 1 });
    const unsent = written((await applyChanges(database.db, [{ kind: 'unsend', actorId: a, messageId: second, windowMs: 60_000 }]))[0]);
    expect(unsent.unreadTotals.has(b)).toBe(false);
    expect(await countUnread(database.db, b)).toBe(1);
    // The other one, unsent while unread, is taken off once; a hide of one b has read takes nothing.
    const unsentUnread = written((await applyChanges(database.db, [{ kind: 'unsend', actorId: a, messageId: first, windowMs: 60_000 }]))[0]);
    expect(unsentUnread.unreadTotals.get(b)).toBe(0);
    const third = await send(b, a);
    const own = written((await applyChanges(database.db, [{ kind: 'hide', actorId: b, messageId: third }]))[0]);
    expect(own.pushes.item?.item).not.toHaveProperty('unread_count');
    expect(await countUnread(database.db, b)).toBe(0);
    expect(await conversationModelFaults(database.db)).toEqual([]);
  });

  it('a read’s receipt names the newest message it read, never one the reader deleted for themselves or its sender unsent', async () => {
    const [a, b] = [await database.newUser(), await database.newUser()];
    const [first, hidden, unsent] = [await send(a, b), await send(a, b), await send(a, b)];
    await applyChanges(database.db, [{ kind: 'hide', actorId: b, messageId: hidden }]);
    await applyChanges(database.db, [{ kind: 'unsend', actorId: a, messageId: unsent, windowMs: 60_000 }]);
    const conversationId = await directConversationId(database.db, a, b);
    const read = written((await applyChanges(database.db, [{ kind: 'read', actorId: b, conversationId, upTo: null }]))[0]);
    const [seenAt] = await database.db.select({ seq: messages.seq }).from(messages).where(eq(messages.id, first));
    expect(read.pushes.seen?.payload).toMatchObject({ user_id: b, seq: seenAt!.seq });
    expect(read.conversationUnread).toBe(0);
    expect(await conversationModelFaults(database.db)).toEqual([]);
  });

  it('refuses each change on its own and writes the others of its batch', async () => {
    const [a, b, stranger] = [await database.newUser(), await database.newUser(), await database.newUser()];
    const id = await send(a, b);
    const outcomes = await applyChanges(database.db, [
      { kind: 'edit', actorId: stranger, messageId: id, text: 'mine now', windowMs: 60_000 },
      { kind: 'edit', actorId: b, messageId: id, text: 'mine now', windowMs: 60_000 },
      { kind: 'react', actorId: b, messageId: 1e12, emoji: '👍', add: true },
      // A missing conversation is not found, and neither is someone else's.
      { kind: 'read', actorId: b, conversationId: Number.MAX_SAFE_INTEGER, upTo: null },
      { kind: 'read', actorId: stranger, conversationId: await directConversationId(database.db, a, b), upTo: null },
      { kind: 'edit', actorId: a, messageId: id, text: 'fixed', windowMs: 60_000 },
    ]);
    expect(outcomes.slice(0, 5)).toEqual([{ refused: 'not_found' }, { refused: 'not_yours' }, { refused: 'not_found' }, { refused: 'not_found' }, { refused: 'not_found' }]);
    expect(sharedChange(outcomes[5])).toMatchObject({ kind: 'edit', text: 'fixed' });
  });
});

describe('change writer', () => {
  it('writes changes that arrive together in one transaction', async () => {
    const writer = createChangeWriter(database.db);
    const pairs = await Promise.all(Array.from({ length: 8 }, async () => [await database.newUser(), await database.newUser()] as const));
    const ids = await Promise.all(pairs.map(([a, b]) => send(a, b)));
    const { result, transactions } = await countTransactions(database.db, () =>
      Promise.all(pairs.map(([, b], index) => writer.write({ kind: 'react', actorId: b, messageId: ids[index]!, emoji: '👍', add: true }))),
    );
    expect(transactions).toBe(1);
    expect(result.map((outcome) => sharedChange(outcome)?.kind)).toEqual(Array(8).fill('reaction'));
    await writer.close();
  });

  it('turns changes away beyond maxPending, and answers `closing` once closed', async () => {
    const [a, b] = [await database.newUser(), await database.newUser()];
    const id = await send(a, b);
    const writer = createChangeWriter(database.db, { maxPending: 1 });
    const taken = writer.write({ kind: 'react', actorId: b, messageId: id, emoji: '👍', add: true });
    expect(await writer.write({ kind: 'react', actorId: b, messageId: id, emoji: '❤️', add: true })).toEqual({ retry: 'busy' });
    expect(sharedChange(await taken)?.kind).toBe('reaction');
    await writer.close();
    expect(await writer.write({ kind: 'read', actorId: b, conversationId: await directConversationId(database.db, a, b), upTo: null })).toEqual({ retry: 'closing' });
  });
});
