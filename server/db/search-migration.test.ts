// The folded search migration (0016) on a database the previous release wrote, on both engines:
// every row kept as it was, the previous release's search still running (its nodes serve during a
// rolling deploy), and search finding the old rows the new way.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeMigration, MIGRATIONS } from '../../testing/migrations';
import { searchMessages } from './message-search';
import { openDatabase, type Db } from './engine/open-database';
import { searchUsers } from './people';
import { rows } from './engine/raw-rows';

const everything = async (db: Db) => ({
  users: await rows(db, sql`select id, firebase_uid, username, email from users order by id`),
  messages: await rows(db, sql`select id, sender_id, recipient_id, client_id, text, sender_seq, recipient_seq, created_at from messages order by id`),
});

describeMigration(['_search_folded_trigrams'], ({ engine, before }) => {
  it('keeps every row and the previous release’s search, and finds the old rows without accents, in the middle of names and in links', { timeout: 240_000 }, async () => {
    const options = await engine().fresh();
    const old = await openDatabase({ ...options, migrationsFolder: before('_search_folded_trigrams') });
    await old.db.execute(sql`insert into users (firebase_uid, username, email, social_type) values
      ('a', 'Inés Núñez', 'ines@example.org', 'google'), ('b', 'Chidi Okafor', null, 'google'), ('c', 'Viewer', null, 'google')`);
    await old.db.execute(sql`insert into messages (sender_id, recipient_id, client_id, text, sender_seq, recipient_seq) values
      (1, 3, 'm1', 'see www.wikipedia.org', 1, 1), (3, 2, 'm2', 'Un café ?', 2, 1), (2, 3, 'm3', 'plain words', 2, 3)`);
    // An operator may have made an extension already (docs/DEPLOY.md): the migration takes it as it is.
    await old.db.execute(sql`create extension if not exists pg_trgm`);
    const stored = await everything(old.db);
    expect(await rows(old.db, sql`select search_vector::text as words from messages where client_id = 'm1'`)).toEqual([{ words: "'see':1 'www.wikipedia.org':2" }]);
    await old.close();

    const migrated = await openDatabase({ ...options, migrationsFolder: MIGRATIONS });
    try {
      const { db } = migrated;
      expect(await everything(db)).toEqual(stored);
      // The previous release's nodes, still serving during a rolling deploy, search as they did.
      expect(await rows(db, sql`select client_id from messages where search_vector @@ to_tsquery('simple', 'www.wikipedia.org:*') and (sender_id = 3 or recipient_id = 3)`)).toEqual([{ client_id: 'm1' }]);
      const indexes = await rows<{ indexname: string }>(db, sql`select indexname from pg_indexes where indexname in ('messages_search_idx', 'users_username_search_idx', 'users_username_trgm_idx') order by indexname`);
      expect(indexes.map((index) => index.indexname)).toEqual(['messages_search_idx', 'users_username_search_idx', 'users_username_trgm_idx']);
      const people = async (query: string) => (await searchUsers(db, 3, query, 20)).map((user) => user.username);
      expect(await people('nunez')).toEqual(['Inés Núñez']);
      expect(await people('kafor')).toEqual(['Chidi Okafor']);
      const found = async (query: string) => (await searchMessages(db, 3, query, null, 20))?.results.map((result) => result.message.text);
      expect(await found('wikipedia')).toEqual(['see www.wikipedia.org']);
      expect(await found('cafe')).toEqual(['Un café ?']);
    } finally {
      await migrated.close();
    }
  });
});
