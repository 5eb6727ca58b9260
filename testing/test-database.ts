// The database of one server test file: PGlite in memory, or the Postgres that TEST_DATABASE_URL
// names (a scratch one: tests write to it), opened before the file's tests and closed after them.
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database, type Db } from '../server/db/engine/open-database';
import { upsertUserFromFirebase } from '../server/db/users';

export interface TestDatabase {
  /** The open database (inside tests and hooks). */
  readonly db: Db;
  /** A new active account, named `name`; returns its id. Unique across files and runs. */
  newUser(name?: string): Promise<number>;
}

let counter = 0;

/** Call at the top of a test file: it registers the hooks that open and close the database. */
export function testDatabase(): TestDatabase {
  let database: Database | null = null;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: 'memory' });
  });
  afterAll(() => database?.close());

  const handle: TestDatabase = {
    get db() {
      if (!database) throw new Error('The test database opens in beforeAll: use it inside tests and hooks.');
      return database.db;
    },
    async newUser(name = 'Someone') {
      const uid = `test-${process.pid}-${++counter}-${Date.now()}`;
      return (await upsertUserFromFirebase(handle.db, { firebaseUid: uid, username: name, email: null, avatar: null, socialType: 'google' })).id;
    },
  };
  return handle;
}
