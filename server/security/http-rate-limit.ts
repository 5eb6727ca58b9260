import type { FastifyReply } from 'fastify';
import { HttpError } from '../http/errors';
import { tooManyRequests, type RateLimiter } from './rate-limit';

/**
 * Takes a token for the user or throws 429 `{msg}` with Retry-After (seconds). Call it right after
 * authenticating, before any work: refused requests should cost as little as possible.
 */
export function enforceRateLimit(
  limiter: RateLimiter,
  userId: number,
  reply: FastifyReply,
  { closeConnection = false } = {},
): void {
  const verdict = limiter.take(userId);
  if (verdict.allowed) return;
  reply.header('retry-after', String(verdict.retryAfterSeconds));
  // For a body not worth reading (an upload): the client is told to stop instead of us draining it.
  if (closeConnection) reply.header('connection', 'close');
  throw new HttpError(429, tooManyRequests(verdict.retryAfterSeconds));
}
