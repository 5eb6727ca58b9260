import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import { tooManyRequests, type RateLimitName, type RateLimiters } from './rate-limit';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own budget; unset: the default `request` budget every authenticated route takes from. */
    rateLimit?: RateLimitName;
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
 * Takes one action from the route's budget for the user, or throws 429 `{msg}` with Retry-After
 * (seconds). Called by authenticate(), so every authenticated route is limited, right after the
 * session is known and before any validation or work: refused requests cost as little as possible.
 */
export async function limitRequest(request: FastifyRequest, userId: number): Promise<void> {
  const { rateLimit = 'request', closeOnRefusal = false } = request.routeOptions.config;
  const verdict = await request.server.userRateLimiters[rateLimit].take(userId);
  if (verdict.allowed) return;
  throw new HttpError(429, tooManyRequests(verdict.retryAfterSeconds), {
    'retry-after': String(verdict.retryAfterSeconds),
    // A body not worth reading (an upload): the client is told to stop instead of us draining it.
    ...(closeOnRefusal && { connection: 'close' }),
  });
}
