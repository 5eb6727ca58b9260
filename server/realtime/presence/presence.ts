// Presence: online while any tab of the person is connected (after its init), on any node; "last
// seen" (users.last_seen_at) once the last one has gone. This node counts its own tabs per user
// and tells the registry only about the first tab in and the last tab out; the registry (memory,
// or Redis for several nodes) says when someone came online or went offline everywhere. Changes
// go to the Socket.IO room `presence:<id>`, which only sockets allowed to see them join
// (presence_subscribe), through the adapter to every node. docs/DECISIONS.md, "Live signals".
import type { FastifyBaseLogger } from 'fastify';
import type { PresencePayload } from '../../../lib/contract';
import { createLane, type Lane } from '../../db/engine/lane';
import type { Db } from '../../db/engine/open-database';
import { lastSeenOf, mayWatchPresence, presenceShared, presenceSubjects, recordLastSeen } from '../../db/presence';
import { rooms, type RealtimeServer, type RealtimeSocket } from '../types';
import type { PresenceRegistry } from './registry';

/**
 * How long after someone's last tab closed they still count as online: a reload, or a hop to
 * another node, then changes nothing for those watching instead of "last seen just now" and back.
 */
export const DEFAULT_OFFLINE_GRACE_MS = 5_000;

export interface PresenceDeps {
  io: RealtimeServer;
  db: Db;
  /** Where subscriptions' and reviews' queries wait their turn (db/lane.ts); one of its own by default. */
  lane?: Lane;
  registry: PresenceRegistry;
  log: FastifyBaseLogger;
  offlineGraceMs?: number;
  /**
   * One node (the in-memory registry): the registry ends with the process, so a graceful stop
   * records everyone still here as last seen now. With Redis the other nodes sweep them.
   */
  recordAllOnClose: boolean;
}

export interface Presence {
  /**
   * A socket's init succeeded: one more tab of its user here. `shown`: their presence setting, as
   * that init read it (so coming online costs no query of its own).
   */
  connected(userId: number, shown: boolean): void;
  /** A socket that had succeeded its init has gone. */
  disconnected(userId: number): void;
  /**
   * presence_subscribe: `socket` now follows those of `userIds` who let its user see their
   * presence (even while they hide it, so it hears when they share it again); the state now of
   * those who share it.
   */
  subscribe(socket: RealtimeSocket, userIds: readonly number[]): Promise<PresencePayload[]>;
  /** `userId` turned sharing their presence on or off. */
  settingChanged(userId: number, shown: boolean): Promise<void>;
  /** `viewerId` may have lost sight of `subjectId` (they unfollowed the viewer): checked, and dropped if so. */
  review(viewerId: number, subjectId: number): Promise<void>;
  /** Stops timers and the heartbeat; one node records its users as last seen now. */
  close(): Promise<void>;
}

const hidden = (userId: number): PresencePayload => ({ user_id: userId, online: false, last_seen_at: null });
const PRESENCE_ROOM = /^presence:(\d+)$/;
const PROFILE_ROOM = /^profile:\d+$/;

export function createPresence({ io, db, lane = createLane(), registry, log, offlineGraceMs = DEFAULT_OFFLINE_GRACE_MS, recordAllOnClose }: PresenceDeps): Presence {
  /** This node's initialised tabs per user. */
  const tabs = new Map<number, number>();
  /** Users whose last tab here closed, still registered until their grace ends; since when. */
  const leaving = new Map<number, { timer: NodeJS.Timeout; since: Date }>();
  /** One chain of registry work per user, so "in" and "out" reach the registry in order. */
  const queues = new Map<number, Promise<void>>();
  let closed = false;

  function enqueue(userId: number, work: () => Promise<void>): void {
    const next = (queues.get(userId) ?? Promise.resolve())
      .then(() => (closed ? undefined : work()))
      .catch((error: unknown) => log.warn({ err: error, userId }, 'presence update failed'))
      .finally(() => {
        if (queues.get(userId) === next) queues.delete(userId);
      });
    queues.set(userId, next);
  }

  /** `shown`: their setting if just read; otherwise read now. */
  async function announceOnline(userId: number, shown?: boolean): Promise<void> {
    if (!(shown ?? (await presenceShared(db, userId)))) return;
    io.to(rooms.presence(userId)).emit('presence', { user_id: userId, online: true, last_seen_at: null });
  }

  async function announceOffline(seen: { userId: number; at: Date }[]): Promise<void> {
    const audiences = await recordLastSeen(db, seen);
    for (const { userId, at } of seen) {
      const audience = audiences.get(userId);
      // Someone hiding it: not a word, or the moment they left would show through.
      if (audience === 'shown') io.to(rooms.presence(userId)).emit('presence', { user_id: userId, online: false, last_seen_at: at.toISOString() });
      // A deactivated account is invisible everywhere: watchers drop it.
      else if (audience === 'gone') io.to(rooms.presence(userId)).emit('presence', hidden(userId));
    }
  }

  function register(userId: number, shown?: boolean): void {
    enqueue(userId, async () => {
      if (await registry.add(userId)) await announceOnline(userId, shown);
    });
  }

  function unregister(userId: number, since: Date): void {
    enqueue(userId, async () => {
      // Back meanwhile: connected() queued its own registration, which finds the user still held.
      if (tabs.has(userId)) return;
      if (await registry.remove(userId)) await announceOffline([{ userId, at: since }]);
    });
  }

  /** The registry lost this node's entries: what this node holds goes back in, what it does not comes out. */
  async function resync(): Promise<void> {
    const registered = new Set(await registry.registered());
    for (const userId of new Set([...tabs.keys(), ...leaving.keys()])) if (!registered.has(userId)) register(userId);
    for (const userId of registered) if (!tabs.has(userId) && !leaving.has(userId)) unregister(userId, new Date());
  }

  registry.start({
    expired: (seen) => void announceOffline(seen).catch((error: unknown) => log.warn({ err: error }, 'presence sweep failed')),
    lost: () => void resync().catch((error: unknown) => log.warn({ err: error }, 'presence resync failed')),
  });

  return {
    connected(userId, shown) {
      const count = (tabs.get(userId) ?? 0) + 1;
      tabs.set(userId, count);
      const pending = leaving.get(userId);
      if (pending) {
        // Back within the grace: still registered, nobody was told anything.
        clearTimeout(pending.timer);
        leaving.delete(userId);
      } else if (count === 1) {
        register(userId, shown);
      }
    },

    disconnected(userId) {
      const count = (tabs.get(userId) ?? 1) - 1;
      if (count > 0) return void tabs.set(userId, count);
      tabs.delete(userId);
      if (closed) return;
      const since = new Date();
      const timer = setTimeout(() => {
        leaving.delete(userId);
        unregister(userId, since);
      }, offlineGraceMs);
      leaving.set(userId, { timer, since });
    },

    async subscribe(socket, userIds) {
      const subjects = await lane.run(() => presenceSubjects(db, socket.data.userId, userIds));
      // Gone while the query ran: joining now would leave its id in the rooms for good.
      if (!socket.connected) return [];
      // Everyone listed, seen or not: what may be done with them (deleted, who may message them)
      // reaches the socket showing them. Nothing there says more than their profile would.
      const wanted = new Set([...subjects.map(({ id }) => rooms.presence(id)), ...userIds.map(rooms.profile)]);
      for (const room of [...socket.rooms]) if ((PRESENCE_ROOM.test(room) || PROFILE_ROOM.test(room)) && !wanted.has(room)) void socket.leave(room);
      // Joined before reading who is online: a change from here on reaches this socket as an event.
      await socket.join([...wanted]);
      const shown = subjects.filter((subject) => subject.shown);
      const online = await registry.online(shown.map(({ id }) => id));
      return shown.map(({ id, lastSeenAt }) =>
        online.has(id) ? { user_id: id, online: true, last_seen_at: null } : { user_id: id, online: false, last_seen_at: lastSeenAt?.toISOString() ?? null },
      );
    },

    async settingChanged(userId, shown) {
      if (shown) {
        const online = (await registry.online([userId])).has(userId);
        const lastSeenAt = online ? null : await lastSeenOf(db, userId);
        io.to(rooms.presence(userId)).emit('presence', { user_id: userId, online, last_seen_at: lastSeenAt?.toISOString() ?? null });
        return;
      }
      // Hidden from everyone, and (as the setting says) everyone is hidden from them.
      io.to(rooms.presence(userId)).emit('presence', hidden(userId));
      for (const socket of await io.in(rooms.inboxes(userId)).fetchSockets()) {
        for (const room of [...socket.rooms]) {
          const subject = PRESENCE_ROOM.exec(room)?.[1];
          if (subject === undefined) continue;
          socket.leave(room);
          socket.emit('presence', hidden(Number(subject)));
        }
      }
    },

    async review(viewerId, subjectId) {
      if (await lane.run(() => mayWatchPresence(db, viewerId, subjectId))) return;
      io.in(rooms.inboxes(viewerId)).socketsLeave(rooms.presence(subjectId));
      io.to(rooms.inboxes(viewerId)).emit('presence', hidden(subjectId));
    },

    async close() {
      closed = true;
      registry.close();
      const now = new Date();
      const seen = [...tabs.keys()].map((userId) => ({ userId, at: now }));
      for (const [userId, { timer, since }] of leaving) {
        clearTimeout(timer);
        seen.push({ userId, at: since });
      }
      leaving.clear();
      tabs.clear();
      await Promise.all(queues.values());
      if (recordAllOnClose) await recordLastSeen(db, seen);
    },
  };
}
