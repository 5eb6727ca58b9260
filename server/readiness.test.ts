import { describe, expect, it } from 'vitest';
import type { Db } from './db/engine/open-database';
import { createReadiness, NotReadyError } from './readiness';

// Only `execute` is called; the fakes stand for a database and a Redis that answer, fail or hang.
const answeringDb = { execute: async () => ({ rows: [{ '?column?': 1 }] }) } as unknown as Db;
const failingDb = { execute: async () => Promise.reject(new Error('ECONNREFUSED')) } as unknown as Db;
const hangingDb = { execute: () => new Promise(() => {}) } as unknown as Db;
const answeringRedis = { ping: async () => {} };
const failingRedis = { ping: async () => Promise.reject(new Error('redis is reconnecting')) };
const notDraining = () => false;

describe('readiness', () => {
  it('is ready when the database (and Redis, when configured) answer', async () => {
    await expect(createReadiness({ db: answeringDb, draining: notDraining }).check()).resolves.toBeUndefined();
    await expect(createReadiness({ db: answeringDb, redis: answeringRedis, draining: notDraining }).check()).resolves.toBeUndefined();
  });

  it('is not ready while the database fails or does not answer', async () => {
    await expect(createReadiness({ db: failingDb, draining: notDraining }).check()).rejects.toThrow(
      new NotReadyError('Database unreachable.'),
    );
    await expect(createReadiness({ db: hangingDb, draining: notDraining }).check()).rejects.toThrow('Database unreachable.');
  });

  it('is not ready while Redis does not answer', async () => {
    await expect(createReadiness({ db: answeringDb, redis: failingRedis, draining: notDraining }).check()).rejects.toThrow(
      'Redis unreachable.',
    );
  });

  it('is not ready once the node is shutting down, whatever its dependencies say', async () => {
    await expect(createReadiness({ db: answeringDb, redis: answeringRedis, draining: () => true }).check()).rejects.toThrow(
      'Shutting down.',
    );
  });

  it('shares one round of checks between probes that arrive together', async () => {
    let queries = 0;
    const db = { execute: async () => void (queries += 1) } as unknown as Db;
    const readiness = createReadiness({ db, draining: notDraining });
    await Promise.all([readiness.check(), readiness.check(), readiness.check()]);
    expect(queries).toBe(1);
    await readiness.check();
    expect(queries).toBe(2);
  });
});
