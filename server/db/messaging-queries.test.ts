import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listConversationSummaries } from './delivery/conversation-summaries';
import { insertMessage, readConversation } from '../../testing/database';
import { countUnread, initialCounts } from './messages';
import { openDatabase, type Database, type Db } from './engine/open-database';
import { conversationMembers } from './schema';
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
    const sides = await Promise.all([a, b].map(async (user) => (await listConversationSummaries(db, user.id, null, 10)).results));
    expect(sides.map((rows) => rows.map((row) => [row.user?.id, row.last_message?.id, row.unread_count]))).toEqual([
      [[b.id, last.id, 1]],
      [[a.id, last.id, 1]],
    ]);
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

describe('conversations and unread counts', () => {
  it('lists conversations by newest message with the peer, the last message and its own unread count', async () => {
    const [me, ann, bea, cid] = [await newUser('me'), await newUser('Ann'), await newUser('Bea'), await newUser('Cid')];
    await send(ann.id, me.id);
    await send(bea.id, me.id);
    await send(bea.id, me.id);
    await send(cid.id, me.id);
    const last = await send(me.id, ann.id, 'latest');

    const page = await listConversationSummaries(db, me.id, null, 10);
    expect(page.results.map((c) => [c.user?.username, c.unread_count])).toEqual([
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

    const first = await listConversationSummaries(db, me.id, null, 2);
    const second = await listConversationSummaries(db, me.id, first.next, 2);
    expect([...first.results, ...second.results].map((c) => c.user?.id)).toEqual([ann.id, cid.id, bea.id]);
    expect(second.next).toBeNull();
  });

  it('leaves inactive people out of the list and of the total', async () => {
    const [me, gone] = [await newUser(), await newUser()];
    await send(gone.id, me.id);
    await setUserActive(db, gone.id, false);
    expect((await listConversationSummaries(db, me.id, null, 10)).results).toEqual([]);
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
    // My position moved past Ann's message; Ann's did not move past mine.
    const positions = await db
      .select({ userId: conversationMembers.userId, readSeq: conversationMembers.readSeq })
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, fromAnn.conversation_id));
    expect(Object.fromEntries(positions.map((row) => [row.userId, row.readSeq]))).toEqual({ [me.id]: toAnn.seq, [ann.id]: fromAnn.seq });
    expect(await countUnread(db, ann.id)).toBe(1);
    // Reading again changes nothing; a new message counts again.
    expect((await readConversation(db, me.id, ann.id)).count).toBe(1);
    await send(ann.id, me.id);
    expect(await countUnread(db, me.id)).toBe(2);
    const list = await listConversationSummaries(db, me.id, null, 10);
    expect(list.results.map((c) => c.unread_count)).toEqual([1, 1]);
  });
});
