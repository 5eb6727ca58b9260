import type { FastifyBaseLogger } from 'fastify';
import type { Event } from 'socket.io';
import type { ClientToServerEvents } from '../../lib/contract';
import { SYNC_PAGE_MAX } from '../../lib/contract/constants';
import { STREAM_READ_ITEMS } from '../db/delivery/conversation-stream';
import { errorAck, splitArgs } from './ack';
import { countSocketRefusal } from './refusals';
import type { RealtimeSocket } from './types';
import { SHED_MSG } from '../security/shed';
import { costOfLimit, tooManyRequests, type RateLimitName, type RateLimiters } from '../security/rate-limit';

/** Events with a stricter budget of their own; every other event takes from `event`. */
const EVENT_BUDGETS: Partial<Record<keyof ClientToServerEvents, RateLimitName>> = {
  send: 'send',
  follow: 'follow',
  // The catch-up's reads, from one budget.
  sync_conversation: 'sync',
  sync_account: 'sync',
  typing: 'typing',
  presence_subscribe: 'presence',
};

/** A sync page is paid for by the reads of STREAM_READ_ITEMS its `limit` lets it take: one for up to 100 items, five for the largest. */
const SYNC_PRICING = { absent: SYNC_PAGE_MAX, max: SYNC_PAGE_MAX, unit: STREAM_READ_ITEMS };
export const syncReads = (payload: unknown): number =>
  costOfLimit(typeof payload === 'object' && payload !== null ? (payload as { limit?: unknown }).limit : undefined, SYNC_PRICING);

/** Events that take more than one point: what their payload asks the server to do. */
const EVENT_COSTS: Partial<Record<keyof ClientToServerEvents, (payload: unknown) => number>> = {
  sync_conversation: syncReads,
  sync_account: syncReads,
};

/** What an event takes from its budget (own keys only, as eventBudget). */
function eventCost(event: unknown, args: unknown[]): number {
  const cost = typeof event === 'string' && Object.hasOwn(EVENT_COSTS, event) ? EVENT_COSTS[event as keyof ClientToServerEvents] : undefined;
  return cost ? cost(splitArgs(args).payload) : 1;
}

/**
 * Never shed: init and the syncs are how a client recovers after a reconnect, and it does not retry
 * either when refused (a tab refused init stays unusable, one refused sync stays behind until its
 * next reconnect or seq gap). Their per-user budgets still bound them.
 */
const NEVER_SHED: ReadonlySet<string> = new Set(['init', 'sync_conversation', 'sync_account']);

/**
 * Events refused for the user's rate, one after another on one socket, after which the socket is
 * closed. The app never comes near it: its outbox sends one message at a time and waits out a
 * refusal, and its other events are a few a minute. A client that ignores the refusals and keeps
 * asking costs an answer each time; closed, it must connect again, which its own budget prices.
 */
export const MAX_REFUSED_IN_A_ROW = 50;

export interface EventLimitsDeps {
  limiters: RateLimiters;
  /** True while the node sheds load (security/load-shedding.ts). */
  overloaded: () => boolean;
  log: FastifyBaseLogger;
}

/** The budget an incoming event takes from: its own, or the default `event` one (unknown names included). */
function eventBudget(event: unknown): RateLimitName {
  // Own keys only: an event named `constructor` or `__proto__` must not find Object's members.
  return typeof event === 'string' && Object.hasOwn(EVENT_BUDGETS, event) ? EVENT_BUDGETS[event as keyof ClientToServerEvents]! : 'event';
}

/**
 * Socket.IO per-socket middleware: runs for every incoming packet before any handler, so every
 * event, including ones added later, is limited. An event refused for the node's load or the
 * user's rate is answered `{error: {msg}}` (transient: the client's outbox retries) and never
 * reaches its handler. Keyed by user id, so all of a user's tabs share one budget.
 */
export function limitEvents(socket: RealtimeSocket, { limiters, overloaded, log }: EventLimitsDeps) {
  let refusedInARow = 0;
  return ([event, ...args]: Event, next: (error?: Error) => void): void => {
    const refuse = (msg: string) => splitArgs(args).ack(errorAck({ msg }));
    if (overloaded() && !NEVER_SHED.has(String(event))) {
      log.debug({ event }, 'socket event shed: server busy');
      countSocketRefusal(socket, 'shed: server busy');
      return refuse(SHED_MSG);
    }
    limiters[eventBudget(event)].take(socket.data.userId, eventCost(event, args)).then(
      (verdict) => {
        if (verdict.allowed) {
          refusedInARow = 0;
          return next();
        }
        log.debug({ event, retryAfterSeconds: verdict.retryAfterSeconds }, 'socket event rate limited');
        // By budget, not event name: an unknown name is the caller's own text.
        countSocketRefusal(socket, `rate limited: ${eventBudget(event)}`);
        refuse(tooManyRequests(verdict.retryAfterSeconds).msg);
        // next() is not called: the event is dropped here.
        if (++refusedInARow === MAX_REFUSED_IN_A_ROW) {
          log.warn({ refused: refusedInARow }, 'socket closed: it kept sending past its rate limit');
          socket.disconnect(true);
        }
      },
      (error: unknown) => {
        log.error({ err: error, event }, 'socket rate limiter failed');
        refuse('Internal server error');
      },
    );
  };
}
