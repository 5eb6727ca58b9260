import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePayload } from '../../lib/contract';
import { listConversations } from './conversations';
import { insertMessage, readConversation } from '../../testing/database';
import { countUnread, initialCounts, listThread } from './messages';
import { openDatabase, type Database, type Db } from './engine/open-database';
import { conversations, messageHidden, messages } from './schema';
import { createUpload } from './uploads';
import { setUserActive, upsertUserFromFirebase } from './users';

let database: Database;
let db: Db;
let counter = 0;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  db = database.db;
});
afterAll(() => database.close());

const newUser = (username = 'Someone') =>
  upsertUserFromFirebase(db, { firebaseUid: `m-${++counter}`, username, email: null, avatar: null, socialType: 'google' });

const send = async (from: number, to: number, text = `message ${++counter}`) =>
  (await insertMessage(db, { senderId: from, recipientId: to, clientId: `c-${++counter}`, text })).message;

describe('insertMessage', () => {
  it('keeps both sides of the conversation on the newest message and counts it unread for the recipient', async () => {
    const [a, b] = [await newUser(), await newUser()];
    await send(a.id, b.id);
    const last = await send(b.id, a.id);
    const rows = await db.select().from(conversations).where(eq(conversations.lastMessageId, last.id));
    expect(rows.map((row) => [row.userId, row.peerId, row.unreadCount]).sort()).toEqual(
      [
        [a.id, b.id, 1],
        [b.id, a.id, 1],
      ].sort(),
    );
  });

  it('returns the attachment with the message', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const upload = await createUpload(db, {
      ownerId: a.id,
      name: 'cat photo.png',
      mimeType: 'image/png',
      size: 1234,
      width: 640,
      height: 480,
      storageKey: 'k1',
    });
    const { message } = await insertMessage(db, {
      senderId: a.id,
      recipientId: b.id,
      clientId: 'with-file',
      text: '',
      attachmentId: upload.id,
    });
    expect(upload.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(message.attachment).toEqual({
      id: upload.id,
      name: 'cat photo.png',
      mime_type: 'image/png',
      size: 1234,
      width: 640,
      height: 480,
      url: `/api/uploads/${upload.id}/cat%20photo.png`,
    });
  });
});

describe('listThread', () => {
  it('pages 120 messages newest first without gaps or duplicates, and only the pair', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    const sent: MessagePayload[] = [];
    for (let i = 0; i < 120; i++) {
      sent.push(await send(i % 3 === 0 ? b.id : a.id, i % 3 === 0 ? a.id : b.id));
      if (i % 10 === 0) await send(c.id, a.id); // interleaved noise from another conversation
    }
    const seen: number[] = [];
    let cursor: number | null = null;
    const sizes: number[] = [];
    do {
      const page = await listThread(db, b.id, a.id, cursor, 50, false);
      sizes.push(page.results.length);
      seen.push(...page.results.map((m) => m.id));
      cursor = page.next;
    } while (cursor !== null);
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual(sent.map((m) => m.id).reverse());
  });

  it('reads a page larger than one statement’s rows in turn: the same 100 newest, hidden ones left out, and the right cursor', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    const sent: MessagePayload[] = [];
    for (let i = 0; i < 130; i++) {
      sent.push(await send(i % 2 === 0 ? a.id : b.id, i % 2 === 0 ? b.id : a.id));
      if (i % 7 === 0) await send(c.id, a.id);
    }
    // Hidden by a on both sides of the first statement's last row (the 51st newest).
    const hidden = [sent[130 - 50]!.id, sent[130 - 52]!.id];
    for (const messageId of hidden) {
      const [message] = await db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, messageId));
      await db.insert(messageHidden).values({ userId: a.id, messageId, conversationId: message!.conversationId });
    }
    const visible = sent.map((m) => m.id).filter((id) => !hidden.includes(id)).reverse();
    // Counted: two statements of at most 51 rows, never one of 101.
    let statements = 0;
    const counted = new Proxy(db, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== 'select' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          statements += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const page = await listThread(counted, a.id, b.id, null, 100, false);
    expect(statements).toBe(2);
    expect(page.results.map((m) => m.id)).toEqual(visible.slice(0, 100));
    expect(page.next).toBe(visible[99]);
    const rest = await listThread(db, a.id, b.id, page.next, 100, false);
    expect(rest.results.map((m) => m.id)).toEqual(visible.slice(100));
    expect(rest.next).toBeNull();
  });

  it('ends with a null cursor when the page is exactly full', async () => {
    const [a, b] = [await newUser(), await newUser()];
    for (let i = 0; i < 3; i++) await send(a.id, b.id);
    expect((await listThread(db, a.id, b.id, null, 3, false)).next).toBeNull();
    const first = await listThread(db, a.id, b.id, null, 2, false);
    expect(first.next).toBe(first.results[1]!.id);
  });

  it('takes a cursor that is none of the pair\'s messages as a message id: the pair\'s older ones, none of the other conversation', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    const before = [await send(a.id, b.id), await send(b.id, a.id)];
    const elsewhere = await send(c.id, a.id);
    const after = await send(a.id, b.id);
    const ids = (page: { results: MessagePayload[] }) => page.results.map((m) => m.id);
    expect(ids(await listThread(db, a.id, b.id, elsewhere.id, 50, false))).toEqual(before.map((m) => m.id).reverse());
    expect(ids(await listThread(db, a.id, b.id, Number.MAX_SAFE_INTEGER, 50, false))).toEqual([after, ...before.reverse()].map((m) => m.id));
    expect(ids(await listThread(db, a.id, c.id, after.id, 50, false))).toEqual([elsewhere.id]);
  });
});

describe('conversations and unread counts', () => {
  it('lists conversations by newest message with the peer, the last message and its own unread count', async () => {
    const [me, ann, bea, cid] = [await newUser('me'), await newUser('Ann'), await newUser('Bea'), await newUser('Cid')];
    await send(ann.id, me.id);
    await send(bea.id, me.id);
    await send(bea.id, me.id);
    await send(cid.id, me.id);
    const last = await send(me.id, ann.id, 'latest');

    const page = await listConversations(db, me.id, null, 10, false);
    expect(page.results.map((c) => [c.user.username, c.unread_count])).toEqual([
      ['Ann', 1],
      ['Cid', 1],
      ['Bea', 2],
    ]);
    expect(page.results[0]).toMatchObject({
      user: { id: ann.id, username: 'Ann', is_following: false, follows_you: false },
      last_message: { id: last.id, text: 'latest', sender_id: me.id },
    });
    expect(page.results[0]!.user).not.toHaveProperty('email');
    expect(await countUnread(db, me.id)).toBe(4);

    const first = await listConversations(db, me.id, null, 2, false);
    const second = await listConversations(db, me.id, first.next, 2, false);
    expect([...first.results, ...second.results].map((c) => c.user.id)).toEqual([ann.id, cid.id, bea.id]);
    expect(second.next).toBeNull();
  });

  it('leaves inactive people out of the list and of the total', async () => {
    const [me, gone] = [await newUser(), await newUser()];
    await send(gone.id, me.id);
    await setUserActive(db, gone.id, false);
    expect((await listConversations(db, me.id, null, 10, false)).results).toEqual([]);
    expect(await countUnread(db, me.id)).toBe(0);
    expect(await initialCounts(db, me.id)).toEqual({ active: true, unread: 0, showPresence: true });
    expect(await initialCounts(db, gone.id)).toEqual({ active: false, unread: 0, showPresence: true });
    await setUserActive(db, gone.id, true);
    expect(await countUnread(db, me.id)).toBe(1);
    expect(await initialCounts(db, me.id)).toEqual({ active: true, unread: 1, showPresence: true });
    expect(await initialCounts(db, 2_000_000_000)).toBeNull();
  });

  it("marks only the peer's messages to the user read, and returns the new total", async () => {
    const [me, ann, bea] = [await newUser(), await newUser(), await newUser()];
    const fromAnn = await send(ann.id, me.id);
    const toAnn = await send(me.id, ann.id);
    await send(bea.id, me.id);

    expect((await readConversation(db, me.id, ann.id)).count).toBe(1);
    const rows = await db.select().from(messages).where(eq(messages.senderId, ann.id));
    expect(rows.find((m) => m.id === fromAnn.id)?.readAt).toBeInstanceOf(Date);
    expect((await db.select().from(messages).where(eq(messages.id, toAnn.id)))[0]?.readAt).toBeNull();
    expect(await countUnread(db, ann.id)).toBe(1);
    // Reading again changes nothing; a new message counts again.
    expect((await readConversation(db, me.id, ann.id)).count).toBe(1);
    await send(ann.id, me.id);
    expect(await countUnread(db, me.id)).toBe(2);
    const list = await listConversations(db, me.id, null, 10, false);
    expect(list.results.map((c) => c.unread_count)).toEqual([1, 1]);
  });
});
