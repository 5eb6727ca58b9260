// The typing check's short memory: one query per pair and lifetime, a block seen once it expires.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockUser } from '../db/blocks';
import { openDatabase, type Database, type Db } from '../db/open-database';
import { upsertUserFromFirebase } from '../db/users';
import { createSignalCheck } from './can-signal';

let database: Database;
let db: Db;
let counter = 0;
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: 'memory' });
  db = database.db;
});
afterAll(() => database.close());

const newUser = async () =>
  (await upsertUserFromFirebase(db, { firebaseUid: `sig-${process.pid}-${++counter}-${Date.now()}`, username: 'S', email: null, avatar: null, socialType: 'google' })).id;

describe('createSignalCheck', () => {
  it('answers a pair from memory until the answer expires, then asks the database again', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    let now = 1_000;
    const query = vi.spyOn(db, 'execute');
    const mayReach = createSignalCheck(db, { ttlMs: 5_000, now: () => now });

    expect(await mayReach(ann, ben)).toBe(true);
    const asked = query.mock.calls.length;
    expect(asked).toBeGreaterThan(0);
    // Ben blocks Ann: the remembered answer still stands for its lifetime, without a query…
    await blockUser(db, ben, ann);
    query.mockClear();
    now += 4_999;
    expect(await mayReach(ann, ben)).toBe(true);
    expect(query).not.toHaveBeenCalled();
    // …and the next signal after it sees the block.
    now += 1;
    expect(await mayReach(ann, ben)).toBe(false);
    expect(query).toHaveBeenCalled();
    query.mockRestore();
  });

  it('asks once for signals that arrive together, and never for oneself', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    const query = vi.spyOn(db, 'execute');
    const mayReach = createSignalCheck(db);
    expect(await Promise.all([mayReach(ann, ben), mayReach(ann, ben), mayReach(ann, ben)])).toEqual([true, true, true]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(await mayReach(ann, ann)).toBe(false);
    query.mockRestore();
  });

  it('keeps at most maxPairs answers, forgetting the oldest first', async () => {
    const [ann, ben, cat] = [await newUser(), await newUser(), await newUser()];
    const query = vi.spyOn(db, 'execute');
    const mayReach = createSignalCheck(db, { maxPairs: 1 });
    await mayReach(ann, ben);
    await mayReach(ann, cat);
    query.mockClear();
    await mayReach(ann, cat);
    expect(query).not.toHaveBeenCalled();
    await mayReach(ann, ben);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
  });
});
