import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../db/session-token';
import { openDatabase, type Database, type Db } from '../db/engine/open-database';
import { sessions } from '../db/schema';
import { findSessionUser } from '../db/sessions';
import { seedDatabase, seedUsers } from '../../testing/seed';

let database: Database;
let db: Db;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  db = database.db;
});
afterAll(() => database.close());

describe('seedUsers', () => {
  it('creates active users whose tokens open a session, storing only the hashes', async () => {
    const seeded = await seedUsers(db, { count: 3, prefix: 'alpha' });

    expect(seeded.map((user) => user.username)).toEqual(['alpha-1', 'alpha-2', 'alpha-3']);
    expect(new Set(seeded.map((user) => user.id)).size).toBe(3);
    expect(new Set(seeded.map((user) => user.token)).size).toBe(3);
    for (const user of seeded) {
      const session = await findSessionUser(db, user.token);
      expect(session?.user).toMatchObject({ id: user.id, username: user.username, isActive: true });
      const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(row?.tokenHash).toBe(hashSessionToken(user.token));
    }
  });

  it('pads numbers to the count, so names sort in seeding order', async () => {
    const seeded = await seedUsers(db, { count: 12, prefix: 'pad' });
    expect(seeded[0]?.username).toBe('pad-01');
    expect(seeded[11]?.username).toBe('pad-12');
  });

  it('reuses the users of a prefix seeded before, with a new live session each', async () => {
    const first = await seedUsers(db, { count: 2, prefix: 'again' });
    const second = await seedUsers(db, { count: 2, prefix: 'again' });
    const other = await seedUsers(db, { count: 2, prefix: 'other' });

    expect(second.map((user) => user.id)).toEqual(first.map((user) => user.id));
    expect(second.map((user) => user.token)).not.toEqual(first.map((user) => user.token));
    for (const user of [...first, ...second]) expect((await findSessionUser(db, user.token))?.user.id).toBe(user.id);
    expect(other.map((user) => user.id)).not.toContain(first[0]?.id);
  });

  it('seeds more than one insert chunk', async () => {
    const seeded = await seedUsers(db, { count: 1_001, prefix: 'many' });
    expect(new Set(seeded.map((user) => user.id)).size).toBe(1_001);
    expect((await findSessionUser(db, seeded[1_000]!.token))?.user.username).toBe('many-1001');
  });

  it('refuses a bad count or prefix, and seeds nothing for zero', async () => {
    expect(await seedUsers(db, { count: 0 })).toEqual([]);
    await expect(seedUsers(db, { count: -1 })).rejects.toThrow(RangeError);
    await expect(seedUsers(db, { count: 1.5 })).rejects.toThrow(RangeError);
    await expect(seedUsers(db, { count: 1, prefix: 'a b' })).rejects.toThrow(RangeError);
  });
});

describe('seedDatabase', () => {
  it('migrates a data directory, seeds it and closes it, so another process can open it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'parley-seed-'));
    try {
      const seeded = await seedDatabase({ dataDir, count: 2, prefix: 'disk' });
      const reopened = await openDatabase({ dataDir });
      try {
        expect((await findSessionUser(reopened.db, seeded[1]!.token))?.user.id).toBe(seeded[1]!.id);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
