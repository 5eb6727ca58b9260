// What a graceful shutdown waits for: HTTP requests being answered and socket events whose
// handler has not acknowledged yet. Once draining begins, no new socket event starts, and every
// HTTP connection closes after its current answer instead of staying alive for the next one.
import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { Event } from 'socket.io';
import { errorAck, RESTARTING_MSG } from './realtime/ack';
import type { RealtimeServer } from './realtime/types';

export interface InFlight {
  /** How many requests and socket events are being handled right now. */
  readonly count: number;
  /** Refuses new socket events (a transient `{error: {msg}}` ack: the client retries them elsewhere). */
  beginDraining(): void;
  /** Resolves true once nothing is in flight, or false after `timeoutMs` with work still running. */
  settled(timeoutMs: number): Promise<boolean>;
}

const SOCKET_PATH = '/socket.io/';

/**
 * Tracks `httpServer`'s requests (except Socket.IO's long polls, which only io.close() ends) and
 * `io`'s events that carry an ack. Every handler acks exactly once (realtime/handler.ts), so an
 * event is done when its ack is called; one sent without an ack is not waited for.
 */
export function trackInFlight(httpServer: HttpServer, io: RealtimeServer): InFlight {
  const open = new Set<ServerResponse>();
  let requests = 0;
  let events = 0;
  let draining = false;
  const waiters = new Set<() => void>();
  const changed = () => {
    if (requests + events > 0) return;
    for (const wake of waiters) wake();
  };

  httpServer.on('request', (req, res: ServerResponse) => {
    open.add(res);
    // This listener runs after the server's own handler, which may already have answered (Socket.IO
    // does, synchronously): then the connection header can no longer be set, and trying throws.
    if (draining && !res.headersSent) res.setHeader('connection', 'close');
    const counted = !req.url?.startsWith(SOCKET_PATH);
    if (counted) requests += 1;
    res.once('close', () => {
      open.delete(res);
      if (!counted) return;
      requests -= 1;
      changed();
    });
  });

  const track = (packet: Event, next: (error?: Error) => void) => {
    const ackIndex = packet.length - 1;
    const ack: unknown = packet[ackIndex];
    if (draining) {
      if (typeof ack === 'function') (ack as (response: unknown) => void)(errorAck({ msg: RESTARTING_MSG }));
      return; // dropped: next() is not called
    }
    if (typeof ack !== 'function' || ackIndex === 0) return next();
    events += 1;
    let done = false;
    // The same array reaches the later middlewares and the handler, so they call this wrapper.
    packet[ackIndex] = (...response: unknown[]) => {
      if (!done) {
        done = true;
        events -= 1;
        changed();
      }
      (ack as (...args: unknown[]) => void)(...response);
    };
    next();
  };
  // After createRealtime's own listener: the rate limiter refuses first, and what it refuses never runs.
  io.on('connection', (socket) => socket.use(track));

  return {
    get count() {
      return requests + events;
    },
    beginDraining() {
      draining = true;
      // Answers still to be written close their connection afterwards.
      for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
    },
    settled(timeoutMs) {
      if (requests + events === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, timeoutMs);
        waiters.add(wake);
      });
    },
  };
}
