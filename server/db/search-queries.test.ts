// People and message search on both databases the product runs on (PGlite and PostgreSQL): the
// folding (accents, case), the middle of names, the parts of links, the ranking, the indexes, and
// for messages the caller's memberships.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessagesInBulk } from '../../testing/bulk-messages';
import { directConversationId, insertMessage } from '../../testing/database';
import { ENGINES, startEngine, type Engine } from '../../testing/engines';
import { seedUsers } from '../../testing/seed';
import { searchMessages, searchMessagesQuery } from './message-search';
import { openDatabase, type Database, type Db } from './engine/open-database';
import { searchUsers, searchUsersQuery } from './people';
import { conversationMembers, conversations, messages } from './schema';
import { searchQuery, searchVector } from './tables/search';
import { upsertUserFromFirebase } from './users';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-search-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(ENGINES)('on %s', (name) => {
  let engine: Engine;
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    engine = await startEngine(name, path.join(dir, name));
    database = await openDatabase(await engine.fresh());
    db = database.db;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await engine?.stop();
  });

  const newUser = async (username: string, email: string | null = null) =>
    (await upsertUserFromFirebase(db, { firebaseUid: randomUUID(), username, email, avatar: null, socialType: 'google' })).id;
  const found = async (viewer: number, query: string) => (await searchUsers(db, viewer, query, 20)).map((user) => user.id);
  /** The query's plan; `asChosen`: the planner's own pick, sequential scans allowed. */
  const plan = (query: ReturnType<typeof sql>, asChosen = false) =>
    db.transaction(async (tx) => {
      // A handful of rows would make any plan a sequential scan: ask whether an index can serve it.
      if (!asChosen) await tx.execute(sql`set local enable_seqscan = off`);
      const rows = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: { 'QUERY PLAN': string }[] };
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  describe('people', () => {
    it('finds the middle of a name from three letters on, and ignores accents and case both ways', async () => {
      const me = await newUser('Searcher');
      const okafor = await newUser('Chidi Okafor');
      const nunez = await newUser('Inés Núñez');
      const oeuvre = await newUser('Œuvre Ørsted');
      expect(await found(me, 'kafor')).toEqual([okafor]);
      expect(await found(me, 'KAFOR')).toEqual([okafor]);
      expect(await found(me, 'nunez')).toEqual([nunez]);
      expect(await found(me, 'ines nunez')).toEqual([nunez]);
      expect(await found(me, 'NÚÑEZ')).toEqual([nunez]);
      expect(await found(me, 'Nun\u0303ez')).toEqual([nunez]); // ñ typed as n and a combining tilde
      expect(await found(me, 'oeuvre orsted')).toEqual([oeuvre]);
      expect(await found(me, 'rste')).toEqual([oeuvre]);
      // One or two letters: only where a word starts ("af" is inside Okafor, "ok" starts it).
      expect(await found(me, 'af')).toEqual([]);
      expect(await found(me, 'ok')).toEqual([okafor]);
      expect(await found(me, 'ch ok')).toEqual([okafor]);
    });

    it('puts whole names, then names starting with the query, then word starts, then middles of words', async () => {
      const me = await newUser('Searcher');
      const middle = await newUser('Ada Ombeki');
      const wordStart = await newUser('Ada Mbeki');
      const startsToo = await newUser('Mbeki Zed');
      const starts = await newUser('Mbéki Bee');
      const whole = await newUser('Mbeki');
      expect(await found(me, 'mbeki')).toEqual([whole, starts, startsToo, wordStart, middle]);
    });

    it('never matches an email by a part of it, wherever the part is', async () => {
      const me = await newUser('Searcher');
      const target = await newUser('Unrelated Name', 'Zanele.Dlamini@Example.org');
      for (const part of ['zanele', 'dlamini', 'lamini', 'zanele.dlamini', 'zanele.dlamini@', 'dlamini@example.org', 'example.org', 'zanele.dlamini@example.or']) {
        expect(await found(me, part), part).toEqual([]);
      }
      expect(await found(me, 'ZANELE.DLAMINI@EXAMPLE.ORG')).toEqual([target]);
    });

    it('is served by the indexes: trigrams for long words, words for short ones, never a scan of users', async () => {
      const me = await newUser('Planner');
      const explain = (query: string) => plan(searchUsersQuery(db, me, query, 20)!.getSQL());
      const long = await explain('kafor');
      expect(long).toContain('users_username_trgm_idx');
      expect(long).not.toContain('Seq Scan on users');
      const short = await explain('ok');
      expect(short).toContain('users_username_search_idx');
      expect(short).not.toContain('Seq Scan on users');
    });
  });

  describe('messages', () => {
    const store = (senderId: number, recipientId: number, text: string) => insertMessage(db, { senderId, recipientId, clientId: randomUUID(), text });
    const texts = async (viewer: number, query: string) => (await searchMessages(db, viewer, query, null, 20))?.results.map((result) => result.message.text);

    it('finds the words of links, emails and dotted names, and ignores accents, with ranges on the text as written', async () => {
      const [ann, ben] = [await newUser('Ann'), await newUser('Ben')];
      await store(ann, ben, 'see www.wikipedia.org/wiki/Main_Page');
      await store(ben, ann, 'Write to chidi.okafor@example.org');
      await store(ann, ben, 'Un café à la Straße');
      expect(await texts(ann, 'wikipedia')).toEqual(['see www.wikipedia.org/wiki/Main_Page']);
      expect(await texts(ann, 'main page')).toEqual(['see www.wikipedia.org/wiki/Main_Page']);
      expect(await texts(ann, 'okafor exam')).toEqual(['Write to chidi.okafor@example.org']);
      expect(await texts(ann, 'CAFE strasse')).toEqual(['Un café à la Straße']);
      expect(await texts(ann, 'wiki.')).toEqual(['see www.wikipedia.org/wiki/Main_Page']);
      const page = await searchMessages(db, ben, 'cafe stras wikip', null, 20);
      expect(page?.results).toEqual([]);
      const [cafe] = (await searchMessages(db, ben, 'cafe stras', null, 20))!.results;
      const text = cafe!.message.text;
      expect(cafe!.highlights.map(({ start, end }) => text.slice(start, end))).toEqual(['café', 'Straß']);
      const [link] = (await searchMessages(db, ben, 'wikip', null, 20))!.results;
      expect(link!.highlights.map(({ start, end }) => link!.message.text.slice(start, end))).toEqual(['wikip']);
    });

    it('finds what the caller may read of their conversations, by their member row alone', async () => {
      const [ann, ben] = [await newUser('Ann'), await newUser('Ben')];
      const sent = [];
      for (const text of ['kayak one', 'kayak two', 'kayak three', 'kayak four']) sent.push((await store(ann, ben, text)).message);
      const conversation = await directConversationId(db, ann, ben);
      // The next release writes no pair rows: search must not need them.
      await db.delete(conversations).where(sql`${conversations.userId} in (${ann}, ${ben})`);
      expect(await texts(ann, 'kayak')).toEqual(['kayak four', 'kayak three', 'kayak two', 'kayak one']);
      // A window from after the first message to the third (a member added, then gone, as groups will have).
      await db
        .update(conversationMembers)
        .set({ joinedSeq: sent[0]!.seq, leftSeq: sent[2]!.seq, leftAt: new Date(), leftReason: 'left' })
        .where(and(eq(conversationMembers.conversationId, conversation), eq(conversationMembers.userId, ann)));
      expect(await texts(ann, 'kayak')).toEqual(['kayak three', 'kayak two']);
      expect(await texts(ben, 'kayak')).toEqual(['kayak four', 'kayak three', 'kayak two', 'kayak one']);
      // No member row: nothing, whoever sent or received it.
      await db.delete(conversationMembers).where(and(eq(conversationMembers.conversationId, conversation), eq(conversationMembers.userId, ann)));
      expect(await texts(ann, 'kayak')).toEqual([]);
      const [found] = (await searchMessages(db, ben, 'four', null, 20))!.results;
      expect(found).toMatchObject({ conversation_id: conversation, user: { id: ann }, message: { id: sent[3]!.id, conversation_id: conversation, seq: sent[3]!.seq } });
      expect(found!.message).not.toHaveProperty('read_at');
    });

    it('starts from messages_search_idx, whatever the caller’s conversations hold, and reaches the rest by key', { timeout: 60_000 }, async () => {
      // 400 people writing to five others each, ten messages a conversation, and one of them in a
      // conversation of 3,000 as well: the account whose messages a plan starting from its
      // conversations would all read (1,000,000 messages were needed to make the planner choose
      // that: BENCHMARKS.md, "Search by membership").
      const people = (await seedUsers(db, { count: 400, prefix: 'planned' })).map((user) => user.id);
      const [first, heavy, partner] = [people[0]!, people[1]!, people[2]!];
      await db.transaction((tx) =>
        insertMessagesInBulk(
          tx,
          sql`select i as ord, ${first}::int + i % 400 as sender_id, ${first}::int + (i % 400 + 1 + (i / 400) % 5) % 400 as recipient_id,
                case when i % 97 = 0 then 'rare ' else '' end || 'common words ' || i as text
              from generate_series(1, 20000) as i
              union all
              select 20000 + i, case when i % 2 = 0 then ${heavy}::int else ${partner}::int end, case when i % 2 = 0 then ${partner}::int else ${heavy}::int end,
                case when i % 97 = 0 then 'rare ' else '' end || 'common long talk ' || i
              from generate_series(1, 3000) as i`,
          ['text'],
        ),
      );
      await db.execute(sql`analyze`);
      // A word in one message in 97: the index finds them.
      const rare = searchMessagesQuery(db, heavy, ['rare'], null, 21).getSQL();
      expect(await plan(rare, true)).toContain('Bitmap Index Scan on messages_search_idx');
      // A word in every message: which index is the planner's to choose, by the word's statistics;
      // but never a scan of the messages, and the member rows each by their key.
      for (const query of [rare, searchMessagesQuery(db, heavy, ['common'], null, 21).getSQL()]) {
        expect(await plan(query, true)).not.toMatch(/Seq Scan on messages\b/);
        const indexed = (await plan(query)).split('\n');
        const members = indexed.flatMap((line, at) => (/ on conversation_members\b/.test(line) ? [indexed[at + 1]!.trim()] : []));
        expect(members.length).toBeGreaterThan(0);
        for (const condition of members) expect(condition).toMatch(/^Index Cond: \(\(conversation_id = .+\) AND \(user_id = \d+\)\)$/);
      }
      expect((await searchMessages(db, heavy, 'talk 2999', null, 20))?.results.map((result) => result.message.text)).toEqual(['common long talk 2999']);
    });

    it('can be served by messages_search_idx: the query spells the index’s expression', async () => {
      // The query's condition, from the same helpers the index is declared with. (Which index
      // serves a whole search depends on the rows: the bench measures it at size.)
      const words = sql`${searchVector(messages.text)} @@ ${searchQuery(sql`${'wikipedia'}::text`)}`;
      expect(await plan(sql`select id from ${messages} where ${words}`)).toContain('Bitmap Index Scan on messages_search_idx');
    });
  });
});
