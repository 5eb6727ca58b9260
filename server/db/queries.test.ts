import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './session-token';
import { findUserById, insertMessage, readConversation } from '../../testing/database';
import { countUnread } from './messages';
import { openDatabase, type Database, type Db } from './engine/open-database';
import { messages, sessions } from './schema';
import { createSession, findSessionUser, revokeSession } from './sessions';
import { setUserActive, upsertUserFromFirebase } from './users';

let database: Database;
let db: Db;
let uidCounter = 0;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  db = database.db;
});
afterAll(() => database.close());

const newUser = () =>
  upsertUserFromFirebase(db, {
    firebaseUid: `uid-${++uidCounter}`,
    username: 'Someone',
    email: null,
    avatar: null,
    socialType: 'google',
  });

describe('sessions', () => {
  it('finds the user by raw token while storing only its hash', async () => {
    const user = await newUser();
    const { token, sessionId } = await createSession(db, user.id);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row?.tokenHash).toBe(hashSessionToken(token));
    expect(Object.values(row ?? {}).map(String)).not.toContain(token);

    expect(await findSessionUser(db, token)).toMatchObject({ sessionId, user: { id: user.id } });
    expect(await findSessionUser(db, `${token}x`)).toBeNull();
  });

  it('issues a different token each time', async () => {
    const user = await newUser();
    const a = await createSession(db, user.id);
    const b = await createSession(db, user.id);
    expect(a.token).not.toBe(b.token);
  });

  it('forgets a revoked token', async () => {
    const user = await newUser();
    const { token, sessionId } = await createSession(db, user.id);
    expect(await revokeSession(db, token)).toBe(sessionId);
    expect(await findSessionUser(db, token)).toBeNull();
    expect(await revokeSession(db, token)).toBeNull();
  });

  it('refreshes last_used_at once it is stale', async () => {
    const user = await newUser();
    const { token, sessionId } = await createSession(db, user.id);
    const stale = new Date(Date.now() - 3_600_000);
    await db.update(sessions).set({ lastUsedAt: stale }).where(eq(sessions.id, sessionId));
    await findSessionUser(db, token);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row!.lastUsedAt.getTime()).toBeGreaterThan(stale.getTime() + 3_000_000);
  });
});

describe('users', () => {
  it('upserts by firebase uid', async () => {
    const first = await newUser();
    const again = await upsertUserFromFirebase(db, {
      firebaseUid: first.firebaseUid,
      username: 'Renamed',
      email: 'r@example.com',
      avatar: null,
      socialType: 'github',
    });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ username: 'Renamed', email: 'r@example.com', socialType: 'github' });
  });

  it('toggles is_active', async () => {
    const user = await newUser();
    await setUserActive(db, user.id, false);
    expect((await findUserById(db, user.id))?.isActive).toBe(false);
    expect(await findUserById(db, 999_999)).toBeNull();
  });
});

describe('messages', () => {
  it('counts unread messages addressed to the user until their conversation is read', async () => {
    const [me, friend, other] = [await newUser(), await newUser(), await newUser()];
    expect(await countUnread(db, me.id)).toBe(0);
    await insertMessage(db, { senderId: friend.id, recipientId: me.id, clientId: 'a', text: '1' });
    await insertMessage(db, { senderId: friend.id, recipientId: me.id, clientId: 'b', text: '2' });
    await insertMessage(db, { senderId: me.id, recipientId: friend.id, clientId: 'a', text: '3' });
    await insertMessage(db, { senderId: other.id, recipientId: me.id, clientId: 'a', text: '4' });
    expect(await countUnread(db, me.id)).toBe(3);
    expect((await readConversation(db, me.id, friend.id)).count).toBe(1);
    expect(await countUnread(db, me.id)).toBe(1);
    expect(await countUnread(db, friend.id)).toBe(1);
  });

  it("stores a sender's client_id once and returns the first row on a repeat", async () => {
    const [me, friend] = [await newUser(), await newUser()];
    const first = await insertMessage(db, { senderId: me.id, recipientId: friend.id, clientId: 'dup', text: 'hi' });
    const again = await insertMessage(db, { senderId: me.id, recipientId: friend.id, clientId: 'dup', text: 'changed' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ message: first.message, recipientId: friend.id, created: false });
    expect(first.message).toMatchObject({ seq: 1, version: 1, text: 'hi', sender_id: me.id });
    // The repeat took no seq: the conversation's next message is its second.
    const next = await insertMessage(db, { senderId: friend.id, recipientId: me.id, clientId: 'next', text: 'yo' });
    expect([next.message.conversation_id, next.message.seq]).toEqual([first.message.conversation_id, 2]);
    expect(await db.select().from(messages).where(eq(messages.senderId, me.id))).toHaveLength(1);
    expect(await countUnread(db, friend.id)).toBe(1);
  });
});

describe('openDatabase', () => {
  it('persists to its directory and migrates an existing database without loss', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-db-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      const user = await upsertUserFromFirebase(first.db, {
        firebaseUid: 'persisted',
        username: null,
        email: null,
        avatar: null,
        socialType: 'google',
      });
      await first.close();

      const second = await openDatabase({ dataDir: dir });
      expect((await findUserById(second.db, user.id))?.firebaseUid).toBe('persisted');
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
