// The presence service on its own, in one node: a real (unlistened) Socket.IO server, PGlite in
// memory, the in-memory registry.
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedUsers, type SeededUser } from '../../../testing/seed';
import { openDatabase, type Database } from '../../db/engine/open-database';
import { users } from '../../db/schema';
import { createLane } from '../../db/engine/lane';
import type { RealtimeServer, RealtimeSocket } from '../types';
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

  it('asks the database for subscriptions and reviews through its lane, one at a time', async () => {
    const [viewer, subject] = people as [SeededUser, SeededUser];
    const lane = createLane();
    const run = vi.spyOn(lane, 'run');
    const presence = createPresence({ io, db: database.db, lane, registry: createMemoryRegistry(), log: silent, recordAllOnClose: false });
    // A socket as subscribe uses it: its user, its rooms, joining and leaving.
    const socket = { data: { userId: viewer.id }, connected: true, rooms: new Set<string>(), join: async () => {}, leave: () => {} };
    expect(await presence.subscribe(socket as unknown as RealtimeSocket, [subject.id])).toEqual([]);
    await presence.review(viewer.id, subject.id);
    expect(run).toHaveBeenCalledTimes(2);
    await presence.close();
  });
});

