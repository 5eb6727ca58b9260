import { eq, inArray, or, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../../testing/test-database';
import { storeMessages, type BatchOutcome } from './message-batch';
import type { NewMessage, StoredMessage } from './message-payload';
import { createMessageWriter, type WriteOutcome } from './message-writer';
import { insertMessage } from '../../../testing/database';
import { openDatabase } from '../engine/open-database';
import { countUnread } from '../messages';
import { accountConversations, conversations, conversationsV2, messages, users } from '../schema';
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
/** Each conversation's head: [id, newest seq, number of messages, newest message id]. */
const heads = async (ids: number[]) =>
  (await database.db.select().from(conversationsV2).where(inArray(conversationsV2.id, ids)))
    .map((row) => [row.id, row.lastSeq, row.messageCount, row.lastMessageId])
    .sort((a, b) => a[0]! - b[0]!);
/** A head's newest seq. */
const headSeq = async (conversationId: number) => (await heads([conversationId]))[0]?.[1];

describe('storeMessages (one transaction per batch)', () => {
  it('numbers each conversation 1…n in batch order, ids ascending, heads moved once, and writes nothing per account', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    const ca = (await insertMessage(database.db, msg(c, a))).message.conversation_id;
    const batch = [msg(a, b), msg(b, a), msg(a, c), msg(a, b), msg(c, b)];
    const out = (await storeMessages(database.db, batch)).map(stored);

    const [ab, cb] = [out[0]!.message.conversation_id, out[4]!.message.conversation_id];
    expect(out.map((s) => [s.message.conversation_id, s.message.seq, s.recipientId])).toEqual([
      [ab, 1, b], // a→b
      [ab, 2, a], // b→a
      [ca, 2, c], // a→c, after c→a
      [ab, 3, b], // a→b
      [cb, 1, b], // c→b
    ]);
    expect(new Set([ab, ca, cb]).size).toBe(3);
    expect(out.every((s) => s.created)).toBe(true);
    const ids = out.map((s) => s.message.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(out[0]!.message).toEqual({
      id: ids[0],
      conversation_id: ab,
      seq: 1,
      version: 1,
      client_id: batch[0]!.clientId,
      sender_id: a,
      text: batch[0]!.text,
      attachment: null,
      attachment_removed: false,
      created_at: expect.stringMatching(/Z$/),
      edited_at: null,
      deleted: false,
      reactions: [],
      reply_to: null,
    });
    // What the rows say matches what was answered; the pair model's columns are left empty.
    const rows = await database.db.select().from(messages).where(inArray(messages.id, ids));
    expect(rows.sort((x, y) => x.id - y.id).map((r) => [r.id, r.conversationId, r.seq, r.senderSeq, r.recipientSeq, r.readAt])).toEqual(
      out.map((s) => [s.message.id, s.message.conversation_id, s.message.seq, null, null, null]),
    );
    // Each head once, at its newest message; nothing per account nor per pair.
    expect(await heads([ab, ca, cb])).toEqual(
      [
        [ab, 3, 3, ids[3]],
        [ca, 2, 2, ids[2]],
        [cb, 1, 1, ids[4]],
      ].sort((x, y) => x[0]! - y[0]!),
    );
    expect((await database.db.select({ lastSeq: users.lastSeq }).from(users).where(inArray(users.id, [a, b, c]))).map((row) => row.lastSeq)).toEqual([0, 0, 0]);
    expect(await database.db.select().from(conversations).where(inArray(conversations.userId, [a, b, c]))).toEqual([]);
    // Unread from the members' positions: b wrote in the same batch as a (b's position stays), c
    // read everything before writing c→a.
    expect([await countUnread(database.db, a), await countUnread(database.db, b), await countUnread(database.db, c)]).toEqual([2, 3, 1]);
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
    expect(await headSeq(before.message.conversation_id)).toBe(3);
    expect(await countUnread(database.db, b)).toBe(3);
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
    expect(await headSeq(stored(out[7]).message.conversation_id)).toBe(2);
    // Refused, it began no conversation.
    expect(await database.db.select().from(accountConversations).where(eq(accountConversations.userId, gone))).toEqual([]);
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
      expect(stored(out[2]).message.seq).toBe(2);
      expect(await headSeq(stored(out[2]).message.conversation_id)).toBe(2);
      await writer.close();
    } finally {
      await database.db.execute(sql.raw(`ALTER TABLE messages DROP CONSTRAINT chk_${tag}`));
    }
  });

  it('two writers on separate connections (two processes, one database) numbering crossing traffic 1…n per conversation, without deadlock', async () => {
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

      const byConversation = new Map<number, { seq: number; id: number }[]>();
      for (const { message } of out) {
        byConversation.set(message.conversation_id, [...(byConversation.get(message.conversation_id) ?? []), { seq: message.seq, id: message.id }]);
      }
      for (const [conversationId, sent] of byConversation) {
        const ordered = sent.sort((x, y) => x.seq - y.seq);
        expect(ordered.map((m) => m.seq)).toEqual(ordered.map((_, i) => i + 1));
        expect(await headSeq(conversationId)).toBe(ordered.length);
        // Ids follow seqs (a thread's order either way).
        expect(ordered.map((m) => m.id)).toEqual(ordered.map((m) => m.id).sort((x, y) => x - y));
      }
    } finally {
      await second?.close();
    }
  });
});
