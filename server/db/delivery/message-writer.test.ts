import { eq, inArray, or, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../testing/test-database';
import { storeMessages, type BatchOutcome } from './message-batch';
import type { NewMessage, StoredMessage } from './message-payload';
import { createMessageWriter, type WriteOutcome } from './message-writer';
import { insertMessage } from '../../../testing/database';
import { openDatabase } from '../engine/open-database';
import { conversations, messages, users } from '../schema';
import { ScriptError } from '../engine/script-transaction';
import { createUpload } from '../uploads';
import { setUserActive } from '../users';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();

let counter = 0;

const newUser = () => database.newUser('W');
const msg = (senderId: number, recipientId: number, extra: Partial<NewMessage> = {}): NewMessage => ({
  senderId,
  recipientId,
  clientId: `c-${++counter}`,
  text: `text ${counter}`,
  ...extra,
});
function stored(outcome: BatchOutcome | WriteOutcome | undefined): StoredMessage {
  if (!outcome || !('stored' in outcome)) throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  return outcome.stored;
}
const lastSeq = async (id: number) => (await database.db.select({ v: users.lastSeq }).from(users).where(eq(users.id, id)))[0]?.v;
const conversationRows = async (ids: number[]) =>
  (await database.db.select().from(conversations).where(inArray(conversations.userId, ids)))
    .map((row) => [row.userId, row.peerId, row.lastMessageId, row.unreadCount])
    .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);

describe('storeMessages (one transaction per batch)', () => {
  it('numbers each account 1…n in batch order, ids ascending, both views, conversations moved once with summed unread', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    await insertMessage(database.db, msg(c, a)); // a 1, c 1
    const batch = [msg(a, b), msg(b, a), msg(a, c), msg(a, b), msg(c, b)];
    const out = (await storeMessages(database.db, batch)).map(stored);

    expect(out.map((s) => [s.message.seq, s.forRecipient.seq])).toEqual([
      [2, 1], // a→b
      [2, 3], // b→a
      [4, 2], // a→c
      [5, 3], // a→b
      [3, 4], // c→b
    ]);
    expect(out.every((s) => s.created)).toBe(true);
    const ids = out.map((s) => s.message.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(out[0]!.message).toEqual({
      id: ids[0],
      client_id: batch[0]!.clientId,
      sender_id: a,
      recipient_id: b,
      text: batch[0]!.text,
      attachment: null,
      attachment_removed: false,
      created_at: expect.stringMatching(/Z$/),
      read_at: null,
      seq: 2,
      edited_at: null,
      deleted: false,
      reactions: [],
      version: 2,
      reply_to: null,
    });
    expect(out[0]!.forRecipient).toEqual({ ...out[0]!.message, seq: 1, version: 1 });
    expect([await lastSeq(a), await lastSeq(b), await lastSeq(c)]).toEqual([5, 4, 3]);
    // What the rows say matches what was answered.
    const rows = await database.db.select().from(messages).where(inArray(messages.id, ids));
    expect(rows.map((r) => [r.id, r.senderSeq, r.recipientSeq]).sort((x, y) => x[0]! - y[0]!)).toEqual(
      out.map((s) => [s.message.id, s.message.seq, s.forRecipient.seq]),
    );
    expect(await conversationRows([a, b, c])).toEqual(
      [
        [a, b, ids[3], 1],
        [a, c, ids[2], 1], // c→a before the batch, unread; a→c is a's own
        [b, a, ids[3], 2],
        [b, c, ids[4], 1],
        [c, a, ids[2], 1],
        [c, b, ids[4], 0],
      ].sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!),
    );
  });

  it('stores a (sender, client_id) once, in the same batch or an earlier one: the first row, nothing changed', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const first = msg(a, b, { text: 'first' });
    const before = stored((await storeMessages(database.db, [first]))[0]);
    const again = msg(a, b, { text: 'second' });
    const out = await storeMessages(database.db, [
      { ...first, text: 'changed' },
      again,
      { ...again, text: 'changed too' },
      msg(a, b),
    ]);
    expect(stored(out[0])).toEqual({ ...before, created: false });
    expect(stored(out[1])).toMatchObject({ created: true, message: { text: 'second', seq: 2 } });
    expect(stored(out[2])).toEqual({ ...stored(out[1]), created: false });
    expect(stored(out[3]).message.seq).toBe(3);
    expect(await database.db.select().from(messages).where(eq(messages.senderId, a))).toHaveLength(3);
    expect([await lastSeq(a), await lastSeq(b)]).toEqual([3, 3]);
    expect((await conversationRows([b]))[0]?.[3]).toBe(3);
  });

  it('refuses a message on its own (unknown, inactive or own recipient, foreign or unknown upload, unknown sender) and stores the rest without gaps', async () => {
    const [a, b, gone, other] = [await newUser(), await newUser(), await newUser(), await newUser()];
    await setUserActive(database.db, gone, false);
    const mine = await createUpload(database.db, { ownerId: a, name: 'a.png', mimeType: 'image/png', size: 1, storageKey: 'ka' });
    const foreign = await createUpload(database.db, { ownerId: other, name: 'o.png', mimeType: 'image/png', size: 1, storageKey: 'ko' });
    const toGone = msg(a, gone);
    const withFile = msg(a, b, { text: '', attachmentId: mine.id });
    const out = await storeMessages(database.db, [
      msg(a, 2_000_000_000),
      msg(a, b),
      toGone,
      msg(a, a),
      msg(a, b, { attachmentId: foreign.id }),
      msg(a, b, { attachmentId: 'no-such-upload' }),
      msg(2_000_000_001, b),
      withFile,
    ]);
    expect(out.map((o) => ('refused' in o ? o.refused : stored(o).message.seq))).toEqual([
      'recipient',
      1,
      'recipient',
      'recipient',
      'attachment',
      'attachment',
      'sender',
      2,
    ]);
    expect(stored(out[7]).message.attachment).toMatchObject({ id: mine.id, name: 'a.png' });
    // A retry that lost its attachment on the way still gets the stored row, attachment and all.
    expect(stored((await storeMessages(database.db, [{ ...withFile, attachmentId: null }]))[0])).toEqual({ ...stored(out[7]), created: false });
    expect([await lastSeq(a), await lastSeq(b), await lastSeq(gone)]).toEqual([2, 2, 0]);
    // A refused client_id is free: the same message to someone valid is stored.
    expect(stored((await storeMessages(database.db, [{ ...toGone, recipientId: b }]))[0]).message.seq).toBe(3);
  });

  it('keeps text that JSON and array literals quote, byte for byte', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const texts = ['say "hi", {ok}', 'back\\slash \\" \\\\', 'NULL', 'null', "it's\nnew\tline", 'émoji 👋🏽 ∑', ' '];
    const out = (await storeMessages(database.db, texts.map((text) => msg(a, b, { text })))).map(stored);
    expect(out.map((s) => s.message.text)).toEqual(texts);
    const rows = await database.db.select({ text: messages.text }).from(messages).where(eq(messages.senderId, a)).orderBy(messages.id);
    expect(rows.map((r) => r.text)).toEqual(texts);
  });
});

describe('message writer', () => {
  it('writes sends that arrive together in one transaction, at most maxBatch per transaction', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const writer = createMessageWriter(database.db, { maxBatch: 4 });
    const out = (await Promise.all(Array.from({ length: 10 }, () => writer.write(msg(a, b))))).map(stored);
    expect(out.map((s) => s.message.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // now() is the transaction's start: one created_at per transaction.
    const at = out.map((s) => s.message.created_at);
    expect(new Set(at.slice(0, 4)).size).toBe(1);
    expect(new Set(at.slice(4, 8)).size).toBe(1);
    expect(new Set(at.slice(8)).size).toBe(1);
    expect(writer.pending).toBe(0);
    await writer.close();
  });

  it('turns sends away at once beyond maxPending, and takes them again once the queue has drained', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const writer = createMessageWriter(database.db, { maxPending: 3 });
    const writes = Array.from({ length: 5 }, () => writer.write(msg(a, b)));
    expect(writer.pending).toBe(3);
    // Answered before any batch could have committed: they never waited for the database.
    expect(await Promise.race([Promise.all(writes.slice(3)), Promise.all(writes.slice(0, 3)).then(() => 'committed first')])).toEqual([
      { retry: 'busy' },
      { retry: 'busy' },
    ]);
    expect((await Promise.all(writes.slice(0, 3))).map((o) => stored(o).message.seq)).toEqual([1, 2, 3]);
    expect(writer.pending).toBe(0);
    expect(stored(await writer.write(msg(a, b))).message.seq).toBe(4);
    await writer.close();
  });

  it('on close, commits what it took, then answers new sends with `closing`', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const writer = createMessageWriter(database.db);
    const taken = [writer.write(msg(a, b)), writer.write(msg(b, a))];
    await writer.close();
    expect(await database.db.select().from(messages).where(or(eq(messages.senderId, a), eq(messages.senderId, b)))).toHaveLength(2);
    expect((await Promise.all(taken)).map((o) => stored(o).created)).toEqual([true, true]);
    expect(await writer.write(msg(a, b))).toEqual({ retry: 'closing' });
    expect(writer.pending).toBe(0);
  });

  it('when a batch fails, stores its other messages one by one and fails only the culprit, with an error that quotes no text', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const tag = `poison${process.pid}x${++counter}`;
    await database.db.execute(sql.raw(`ALTER TABLE messages ADD CONSTRAINT chk_${tag} CHECK (position('${tag}' in text) = 0)`));
    try {
      const writer = createMessageWriter(database.db);
      const out = await Promise.all([
        writer.write(msg(a, b)),
        writer.write(msg(a, b, { text: `the ${tag} private words` })),
        writer.write(msg(b, a)),
      ]);
      expect(stored(out[0]).message.seq).toBe(1);
      expect(out[1]).toEqual({ retry: 'failed', error: expect.any(ScriptError) });
      const error = (out[1] as { error: ScriptError }).error;
      expect(error).toMatchObject({ message: expect.stringContaining(`chk_${tag}`), constraint: `chk_${tag}` });
      expect(`${error.stack} ${JSON.stringify(error)}`).not.toContain('private words');
      expect([stored(out[2]).message.seq, stored(out[2]).forRecipient.seq]).toEqual([2, 2]);
      expect([await lastSeq(a), await lastSeq(b)]).toEqual([2, 2]);
      await writer.close();
    } finally {
      await database.db.execute(sql.raw(`ALTER TABLE messages DROP CONSTRAINT chk_${tag}`));
    }
  });

  it('two writers on separate connections (two processes, one database) numbering crossing traffic 1…n per account, without deadlock', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => newUser()));
    // On Postgres a second pool is a second process's view; PGlite has one connection anyway.
    const second = process.env.TEST_DATABASE_URL ? await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL }) : null;
    try {
      const writers = [createMessageWriter(database.db, { maxBatch: 7 }), createMessageWriter(second?.db ?? database.db, { maxBatch: 5 })];
      const sends = Array.from({ length: 120 }, (_, i) => {
        const from = people[i % people.length]!;
        const to = people[(i * 7 + 1 + Math.floor(i / people.length)) % people.length]!;
        return writers[i % 2]!.write(msg(from, to === from ? people[(people.indexOf(from) + 1) % people.length]! : to));
      });
      const out = (await Promise.all(sends)).map(stored);
      await Promise.all(writers.map((writer) => writer.close()));

      const seqsOf = new Map<number, { seq: number; id: number; peer: number }[]>();
      for (const { message, forRecipient } of out) {
        seqsOf.set(message.sender_id, [...(seqsOf.get(message.sender_id) ?? []), { seq: message.seq, id: message.id, peer: message.recipient_id }]);
        seqsOf.set(message.recipient_id, [...(seqsOf.get(message.recipient_id) ?? []), { seq: forRecipient.seq, id: message.id, peer: message.sender_id }]);
      }
      for (const person of people) {
        const mine = (seqsOf.get(person) ?? []).sort((x, y) => x.seq - y.seq);
        expect(mine.map((m) => m.seq)).toEqual(mine.map((_, i) => i + 1));
        expect(await lastSeq(person)).toBe(mine.length);
        // Within a conversation, ids follow seqs (threads are shown by id).
        for (const peer of people) {
          const thread = mine.filter((m) => m.peer === peer).map((m) => m.id);
          expect([...thread].sort((x, y) => x - y)).toEqual(thread);
        }
      }
    } finally {
      await second?.close();
    }
  });
});
