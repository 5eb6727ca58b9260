import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';
import { tooManyRequests, type ADDRESS_RATE_LIMITS, type RateLimitName, type RateLimiters } from '../security/rate-limit';

type AddressRateLimit = (typeof ADDRESS_RATE_LIMITS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own budget; unset: the default `request` budget every authenticated route takes from. */
    rateLimit?: RateLimitName;
    /** What a request takes from that budget, from what it asks for (before validation); unset: one. */
    rateCost?: (request: FastifyRequest) => number;
    /** A refused request closes the connection instead of having its body drained (uploads). */
    closeOnRefusal?: boolean;
    /** Never shed for load (security/load-shedding.ts): the probes, and accounts/info. */
    neverShed?: boolean;
  }
  interface FastifyInstance {
    userRateLimiters: RateLimiters;
  }
}

/** Makes the limiters reachable from every route (authenticate() takes from them). */
export function installUserRateLimits(app: FastifyInstance, limiters: RateLimiters): void {
  app.decorate('userRateLimiters', limiters);
}

/**
 * Takes one action (or the route's `rateCost`) from the route's budget for the user, or throws
 * 429 `{msg}` with Retry-After (seconds). Called by authenticate(), so every authenticated route is limited, right after the
 * session is known and before any validation or work: refused requests cost as little as possible.
 */
export async function limitRequest(request: FastifyRequest, userId: number): Promise<void> {
  const { rateLimit = 'request', rateCost, closeOnRefusal = false } = request.routeOptions.config;
  const verdict = await request.server.userRateLimiters[rateLimit].take(userId, rateCost?.(request) ?? 1);
  if (!verdict.allowed) throw refusal(verdict.retryAfterSeconds, closeOnRefusal);
}

/**
 * Takes `points` from a per-address budget (account creation, downloads: calls with no account to
 * charge) for the request's client address, which is the one behind the trusted proxies
 * (TRUST_PROXY), or throws 429 as limitRequest does. With Redis, every node takes from one budget.
 */
export async function limitAddress(request: FastifyRequest, budget: AddressRateLimit, points = 1): Promise<void> {
  const verdict = await request.server.userRateLimiters[budget].take(request.ip, points);
  if (!verdict.allowed) throw refusal(verdict.retryAfterSeconds, request.routeOptions.config.closeOnRefusal ?? false);
}

function refusal(retryAfterSeconds: number, closeOnRefusal: boolean): HttpError {
  return new HttpError(429, tooManyRequests(retryAfterSeconds), {
    'retry-after': String(retryAfterSeconds),
    // A body not worth reading (an upload): the client is told to stop instead of us draining it.
    ...(closeOnRefusal && { connection: 'close' }),
  });
}
