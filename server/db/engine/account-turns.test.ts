import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred } from '../../../lib/testing/deferred';
import { actingFor, asShared, nowActingFor } from './account-turns';
import { openDatabase, type Database } from './open-database';
import { rows } from './raw-rows';

// A real PGlite: one connection, as in production by default, so every query waits its turn.
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
});
afterAll(() => database.close());

/** Holds the one connection until the returned function is called; resolves once it holds it. */
async function holdConnection(): Promise<() => Promise<void>> {
  const gate = deferred<void>();
  const holding = deferred<void>();
  const done = actingFor('someone else', () =>
    database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      holding.resolve();
      await gate.promise;
    }),
  );
  await holding.promise;
  return async () => {
    gate.resolve();
    await done;
  };
}

describe('database connections taken in turn', () => {
  it('serves waiting accounts one query each in turn, the writers’ batch first, instead of in arrival order', async () => {
    const release = await holdConnection();
    const order: string[] = [];
    const query = (name: string) => database.db.execute(sql`select 1`).then(() => void order.push(name));
    // The flooding account asks first, four times; another account, then a writer's batch, after it.
    const flood = [1, 2, 3, 4].map(() => actingFor(1, () => query('flooder')));
    const other = actingFor(2, () => query('other'));
    const batch = asShared(() => query('batch'));
    await release();
    await Promise.all([...flood, other, batch]);
    expect(order).toEqual(['batch', 'flooder', 'other', 'flooder', 'flooder', 'flooder']);
  });

  it('counts a request’s queries as its account’s once its session is known', async () => {
    const release = await holdConnection();
    const order: string[] = [];
    const query = (name: string) => database.db.execute(sql`select 1`).then(() => void order.push(name));
    const flood = [1, 2, 3].map(() => actingFor(1, () => query('flooder')));
    // Begun as an anonymous caller, then known to be account 1: it queues behind the flooder's own.
    const request = actingFor('anonymous', async () => {
      nowActingFor(1);
      await query('request of the flooder');
    });
    const other = actingFor(2, () => query('other'));
    await release();
    await Promise.all([...flood, request, other]);
    expect(order).toEqual(['flooder', 'other', 'flooder', 'flooder', 'request of the flooder']);
  });

  it('hands the connection on when a query fails', async () => {
    await expect(actingFor(1, () => database.db.execute(sql`select no_such_column`))).rejects.toThrow();
    expect(await actingFor(2, () => rows<{ two: number }>(database.db, sql`select 2 as two`))).toEqual([{ two: 2 }]);
  });
});
