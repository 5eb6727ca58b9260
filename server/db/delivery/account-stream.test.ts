// `sync_account`'s read (account-stream.ts) on both engines: the account's own items by seq, the
// conversations that moved since the cursor's horizon as its list shows them, paged, and, on
// PostgreSQL, a transaction still running when the horizon is read reported the next time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_CONVERSATIONS_PAGE } from '../../../lib/contract';
import { directConversationId, insertMessage, readConversation } from '../../../testing/database';
import { ENGINES, startEngine, type Engine } from '../../../testing/engines';
import { openDatabase, type Database, type Db } from '../engine/open-database';
import { setUserActive, upsertUserFromFirebase } from '../users';
import { setMuted } from '../conversations';
import { blockUser, unblockUser } from '../blocks';
import { deleteAccount } from '../account-deletion';
import { updateProfile } from '../profile';
import { applyChanges } from './change-batch';
import { formatAccountCursor, parseAccountCursor, syncAccount, type AccountCursor } from './account-stream';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-account-stream-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let users = 0;
const newUser = async (db: Db, name: string) =>
  (await upsertUserFromFirebase(db, { firebaseUid: `account-stream-${++users}`, username: name, email: null, avatar: null, socialType: 'google' })).id;

describe.each(ENGINES)('on %s', (name) => {
  let engine: Engine;
  let database: Database;
  let databaseUrl: string | undefined;
  let db: Db;
  beforeAll(async () => {
    engine = await startEngine(name, path.join(dir, name));
    const options = await engine.fresh();
    databaseUrl = options.databaseUrl;
    database = await openDatabase(options);
    db = database.db;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await engine?.stop();
  });

  const send = async (senderId: number, recipientId: number, text: string) =>
    (await insertMessage(db, { senderId, recipientId, clientId: `${senderId}-${text}-${Math.random()}`, text })).message;
  const sync = async (userId: number, cursor: AccountCursor | null, limit = 500) => {
    const page = await syncAccount(db, userId, cursor, limit);
    if (!page) throw new Error('no account');
    return page;
  };

  it('starts from now, then answers the conversations that moved and the account’s own items, once', async () => {
    const [ana, bo, cy] = [await newUser(db, 'Ana'), await newUser(db, 'Bo'), await newUser(db, 'Cy')];
    await send(bo, ana, 'before the cursor');
    const start = await sync(ana, null);
    expect(start).toMatchObject({ items: [], conversations: [], hasMore: false });
    expect(parseAccountCursor(formatAccountCursor(start.cursor))).toEqual(start.cursor);

    // Bo writes twice, Cy once; Ana reads Bo's, mutes Cy, deletes Bo's last for herself.
    await send(bo, ana, 'one');
    const last = await send(bo, ana, 'two');
    await send(cy, ana, 'hi');
    await readConversation(db, ana, bo);
    await setMuted(db, ana, cy, true);
    const [hidden] = await applyChanges(db, [{ kind: 'hide', actorId: ana, messageId: last.id }]);
    expect(hidden && 'pushes' in hidden).toBe(true);
    const withBo = await directConversationId(db, ana, bo);
    const withCy = await directConversationId(db, ana, cy);

    const page = await sync(ana, start.cursor);
    expect(page.hasMore).toBe(false);
    expect(page.items).toEqual([
      { seq: 1, conversation_id: withBo, kind: 'read', read_seq: 3, unread_count: 0 },
      { seq: 2, conversation_id: withCy, kind: 'muted', muted: true },
      expect.objectContaining({ seq: 3, conversation_id: withBo, kind: 'hide', message_id: last.id, preview: expect.objectContaining({ text: 'one', seq: 2 }) }),
    ]);
    expect(page.conversations).toEqual([
      {
        conversation_id: withBo,
        kind: 'direct',
        user: { id: bo, username: 'Bo', avatar: null, is_following: false, follows_you: false, deleted: false },
        last_seq: 3,
        // The newest she has not deleted for herself.
        last_message: expect.objectContaining({ text: 'one', seq: 2, conversation_id: withBo }),
        read_seq: 3,
        unread_count: 0,
        muted: false,
        left: false,
      },
      expect.objectContaining({ conversation_id: withCy, last_message: expect.objectContaining({ text: 'hi' }), unread_count: 1, muted: true }),
    ]);
    expect(page.cursor.seq).toBe(3);

    // Nothing since: nothing again. Bo's side moved too, seen from his account.
    expect(await sync(ana, page.cursor)).toMatchObject({ items: [], conversations: [], hasMore: false });
    expect((await sync(bo, start.cursor)).conversations.map((row) => row.conversation_id)).toEqual([withBo]);
  });

  it('pages the conversations that moved, keeping the horizon until the last page, and names apart those the list leaves out', async () => {
    const ana = await newUser(db, 'Ana');
    const start = await sync(ana, null);
    const peers: number[] = [];
    for (let i = 0; i < SYNC_CONVERSATIONS_PAGE + 5; i++) peers.push(await newUser(db, `Peer ${i}`));
    for (const peer of peers) await send(peer, ana, 'hello');
    // Someone she blocked: not in the list, so named only as removed (it takes its place in a page).
    await blockUser(db, ana, peers[0]!);

    const first = await sync(ana, start.cursor);
    expect(first.conversations.length + first.removed.length).toBe(SYNC_CONVERSATIONS_PAGE);
    expect(first).toMatchObject({ hasMore: true, cursor: { horizon: start.cursor.horizon } });
    // Between the pages, a conversation the first page already named moves again.
    await send(peers[1]!, ana, 'between the pages');
    const second = await sync(ana, first.cursor);
    expect(second.hasMore).toBe(false);
    expect(second.cursor).toMatchObject({ afterConversation: 0, nextHorizon: '0' });
    const reported = [...first.conversations, ...second.conversations].map((row) => row.user!.id);
    expect(reported.sort((a, b) => a - b)).toEqual(peers.slice(1));
    expect([...first.removed, ...second.removed]).toEqual([await directConversationId(db, ana, peers[0]!)]);
    // The next run names it: its move came after the first page's horizon.
    expect((await sync(ana, second.cursor)).conversations.map((row) => row.user!.id)).toEqual([peers[1]]);
  });

  // PGlite runs one transaction at a time: nothing can be running while it reads.
  if (name === 'PostgreSQL') it('reports a conversation moved by a transaction still running when the horizon was read, the next time', async () => {
    const [ana, bo, cy, dee] = [await newUser(db, 'Ana'), await newUser(db, 'Bo'), await newUser(db, 'Cy'), await newUser(db, 'Dee')];
    await send(bo, ana, 'first');
    const conversation = await directConversationId(db, ana, bo);
    const start = await sync(ana, null);
    // Another connection moves the head and holds its transaction open across the sync.
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('update conversations_v2 set changed_xid = pg_current_xact_id() where id = $1', [conversation]);
      // A later transaction commits meanwhile: the running one is now below the newest finished.
      await send(cy, dee, 'meanwhile');
      const during = await sync(ana, start.cursor);
      expect(during.conversations).toEqual([]);
      await other.query('commit');
      // Its transaction id is at or past the horizon that answer gave, so the next one has it.
      expect((await sync(ana, during.cursor)).conversations.map((row) => row.conversation_id)).toEqual([conversation]);
    } finally {
      await other.end();
    }
  });

  it('names a conversation again when a block, an unblock, a deactivation, a return or a deletion moves what the list shows of it', async () => {
    const [ana, bo, cy] = [await newUser(db, 'Ana'), await newUser(db, 'Bo'), await newUser(db, 'Cy')];
    await send(bo, ana, 'hello');
    await send(cy, ana, 'hi');
    const [withBo, withCy] = [await directConversationId(db, ana, bo), await directConversationId(db, ana, cy)];
    let cursor = (await sync(ana, null)).cursor;
    const next = async () => {
      const page = await sync(ana, cursor);
      cursor = page.cursor;
      return { shown: page.conversations.map((row) => [row.conversation_id, row.user?.deleted ?? null]), removed: page.removed };
    };

    await blockUser(db, ana, bo);
    expect(await next()).toEqual({ shown: [], removed: [withBo] });
    // Blocked again: nothing changed, nothing named.
    await blockUser(db, ana, bo);
    expect(await next()).toEqual({ shown: [], removed: [] });
    await unblockUser(db, ana, bo);
    expect(await next()).toEqual({ shown: [[withBo, false]], removed: [] });
    // Bo blocking Ana leaves her list as it was: named (the head is shared), still shown.
    await blockUser(db, bo, ana);
    expect(await next()).toEqual({ shown: [[withBo, false]], removed: [] });

    await setUserActive(db, cy, false);
    expect(await next()).toEqual({ shown: [], removed: [withCy] });
    await setUserActive(db, cy, true);
    expect(await next()).toEqual({ shown: [[withCy, false]], removed: [] });
    expect(await deleteAccount(db, cy)).not.toBeNull();
    expect(await next()).toEqual({ shown: [[withCy, true]], removed: [] });
    expect(await next()).toEqual({ shown: [], removed: [] });
  });

  it('names a conversation again when the other person’s name or photo changes, as the list now shows them', async () => {
    const [ana, bo] = [await newUser(db, 'Ana'), await newUser(db, 'Bo')];
    await send(bo, ana, 'hello');
    const withBo = await directConversationId(db, ana, bo);
    let cursor = (await sync(ana, null)).cursor;
    const next = async () => {
      const page = await sync(ana, cursor);
      cursor = page.cursor;
      return page.conversations.map((row) => [row.conversation_id, row.user?.username]);
    };

    expect(await updateProfile(db, bo, { username: 'Bo Renamed' })).toMatchObject({ ok: true, changed: true });
    expect(await next()).toEqual([[withBo, 'Bo Renamed']]);
    // The same name again changes nothing, so nothing is named.
    expect(await updateProfile(db, bo, { username: 'Bo Renamed' })).toMatchObject({ ok: true, changed: false });
    expect(await next()).toEqual([]);
  });

  it('answers null for an account that is not active', async () => {
    const gone = await newUser(db, 'Gone');
    await db.execute(sql`update users set is_active = false where id = ${gone}`);
    expect(await syncAccount(db, gone, null, 10)).toBeNull();
  });
});
