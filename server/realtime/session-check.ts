// A socket is authenticated once, at its handshake, and may stay open for days. Its session is
// checked again (revoked, expired, account deactivated, Firebase account disabled or deleted) at
// most every SESSION_CHECK_SECONDS: when it sends an event, and by a sweep over this node's
// sockets for those that only listen. A session found over ends the socket.
import type { FastifyBaseLogger } from 'fastify';
import type { Event } from 'socket.io';
import type { Db } from '../db/engine/open-database';
import { findSessionById } from '../db/sessions';
import type { SessionAuth } from '../auth/session-auth';
import { errorAck, splitArgs } from './ack';
import type { RealtimeServer, RealtimeSocket } from './types';

/** The ack of an event refused because its socket's session is over (the socket then closes). */
export const SESSION_ENDED_MSG = 'Your session has ended; sign in again.';

// The sweep runs every interval, but never more often than this; with an interval of 0 (every
// event checked: tests) every minute, so that it does not race the events being checked.
const MIN_SWEEP_MS = 1_000;
const SWEEP_WHEN_EVERY_EVENT_MS = 60_000;
// Sockets checked at once by a sweep: a node with many sockets spreads its queries out.
const SWEEP_BATCH = 20;

interface Watched {
  log: FastifyBaseLogger;
  checkedAt: number;
  running?: Promise<string | null>;
}

export interface SessionCheck {
  /** Starts watching a socket that has just passed its handshake; returns its `socket.use` middleware. */
  watch(socket: RealtimeSocket, log: FastifyBaseLogger): (packet: Event, next: (error?: Error) => void) => void;
  /** Stops the sweep timer. */
  close(): void;
}

export function createSessionCheck(io: RealtimeServer, db: Db, sessionAuth: SessionAuth): SessionCheck {
  const watched = new WeakMap<RealtimeSocket, Watched>();
  const { rules, accountCheck } = sessionAuth;

  /** Why the socket's session is over, or null while it lives. */
  async function endedBecause(socket: RealtimeSocket): Promise<string | null> {
    const session = await findSessionById(db, socket.data.sessionId, rules);
    if (!session) return 'session revoked or expired';
    if (!session.user.isActive) return 'account deactivated';
    if (!(await accountCheck.stillValid(session.user))) return 'firebase account disabled or deleted';
    return null;
  }

  const due = (entry: Watched) => Date.now() - entry.checkedAt >= rules.checkIntervalMs;

  /** One check per socket at a time; a database failure leaves the socket be (logged). */
  function check(socket: RealtimeSocket, entry: Watched): Promise<string | null> {
    entry.running ??= endedBecause(socket)
      .then(
        (reason) => {
          if (reason === null) entry.checkedAt = Date.now();
          return reason;
        },
        (error: unknown) => {
          entry.log.error({ err: error }, 'socket session check failed');
          return null;
        },
      )
      .finally(() => (entry.running = undefined));
    return entry.running;
  }

  function end(socket: RealtimeSocket, entry: Watched, reason: string): void {
    if (!socket.connected) return;
    entry.log.info({ reason }, 'socket session ended');
    socket.disconnect(true);
  }

  let sweeping = false;
  async function sweep(): Promise<void> {
    if (sweeping) return;
    sweeping = true;
    try {
      const dueSockets = [...io.of('/').sockets.values()].filter((socket) => {
        const entry = watched.get(socket);
        return entry && due(entry);
      });
      for (let i = 0; i < dueSockets.length; i += SWEEP_BATCH) {
        await Promise.all(
          dueSockets.slice(i, i + SWEEP_BATCH).map(async (socket) => {
            const entry = watched.get(socket)!;
            const reason = await check(socket, entry);
            if (reason) end(socket, entry, reason);
          }),
        );
      }
    } finally {
      sweeping = false;
    }
  }
  const period = rules.checkIntervalMs > 0 ? Math.max(rules.checkIntervalMs, MIN_SWEEP_MS) : SWEEP_WHEN_EVERY_EVENT_MS;
  const timer = setInterval(() => void sweep(), period);
  timer.unref();

  return {
    watch(socket, log) {
      // The handshake has just checked everything.
      const entry: Watched = { log, checkedAt: Date.now() };
      watched.set(socket, entry);
      return ([, ...args], next) => {
        if (!due(entry)) return next();
        void check(socket, entry).then((reason) => {
          if (reason === null) return next();
          splitArgs(args).ack(errorAck({ msg: SESSION_ENDED_MSG }));
          end(socket, entry, reason);
          // next() is not called: the event is dropped.
        });
      };
    },
    close: () => clearInterval(timer),
  };
}
