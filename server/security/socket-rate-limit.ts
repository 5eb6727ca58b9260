import type { FastifyBaseLogger } from 'fastify';
import type { Event } from 'socket.io';
import type { ClientToServerEvents } from '../../lib/contract';
import { errorAck, splitArgs } from '../realtime/ack';
import type { RealtimeSocket } from '../realtime/types';
import { tooManyRequests, type RateLimiter } from './rate-limit';

export type EventLimiters = Partial<Record<keyof ClientToServerEvents, RateLimiter>>;

/**
 * Socket.IO per-socket middleware: runs for every incoming event before its handler. A limited
 * event over its rate is answered `{error: {msg}}` (transient for the client's outbox) and never
 * reaches the handler. Keyed by user id, so all of a user's tabs share one budget.
 */
export function rateLimitEvents(socket: RealtimeSocket, limiters: EventLimiters, log: FastifyBaseLogger) {
  return ([event, ...args]: Event, next: (error?: Error) => void): void => {
    // Own keys only: an event named `constructor` or `__proto__` must not find Object's members.
    const limiter = typeof event === 'string' && Object.hasOwn(limiters, event) ? limiters[event as keyof ClientToServerEvents] : undefined;
    const verdict = limiter?.take(socket.data.userId);
    if (!verdict || verdict.allowed) return next();
    log.info({ event, retryAfterSeconds: verdict.retryAfterSeconds }, 'socket event rate limited');
    splitArgs(args).ack(errorAck(tooManyRequests(verdict.retryAfterSeconds)));
    // next() is not called: the event is dropped here.
  };
}
