// The presence service on its own, in one node: a real (unlistened) Socket.IO server, PGlite in
// memory, the in-memory registry.
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUsers, type SeededUser } from '../../../testing/seed';
import { openDatabase, type Database } from '../../db/open-database';
import { users } from '../../db/schema';
import type { RealtimeServer } from '../types';
import { createPresence } from './presence';
import { createMemoryRegistry } from './registry';

const silent = { warn: () => {} } as unknown as FastifyBaseLogger;
let database: Database;
let io: RealtimeServer;
let people: SeededUser[];
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  people = await seedUsers(database.db, { count: 3, prefix: 'presence' });
  io = new Server() as RealtimeServer;
});
// Never attached to an HTTP server: nothing of it to close.
afterAll(() => database.close());

const lastSeen = async (ids: number[]) =>
  Object.fromEntries(
    (await database.db.select({ id: users.id, at: users.lastSeenAt }).from(users).where(inArray(users.id, ids))).map((row) => [row.id, row.at]),
  );

describe('presence, one node', () => {
  it('on a graceful stop records everyone still here as last seen, those leaving as when they left', async () => {
    const [stays, leaving, gone] = people as [SeededUser, SeededUser, SeededUser];
    const registry = createMemoryRegistry();
    const presence = createPresence({ io, db: database.db, registry, log: silent, offlineGraceMs: 60_000, recordAllOnClose: true });
    presence.connected(stays.id, true);
    presence.connected(leaving.id, true);
    presence.connected(gone.id, true);
    presence.disconnected(gone.id);
    await expect.poll(() => registry.online([stays.id, leaving.id, gone.id])).toEqual(new Set([stays.id, leaving.id, gone.id]));
    const leftAt = Date.now();
    presence.disconnected(leaving.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closedAt = Date.now();
    await presence.close();

    const seen = await lastSeen([stays.id, leaving.id]);
    expect(seen[leaving.id]!.getTime()).toBeGreaterThanOrEqual(leftAt);
    expect(seen[leaving.id]!.getTime()).toBeLessThan(closedAt);
    expect(seen[stays.id]!.getTime()).toBeGreaterThanOrEqual(closedAt);
    const [goneRow] = await database.db.select({ at: users.lastSeenAt }).from(users).where(eq(users.id, gone.id));
    expect(goneRow?.at).not.toBeNull();
  });
});
