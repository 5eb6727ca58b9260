import type { FastifyBaseLogger } from 'fastify';
import type { ExtendedError } from 'socket.io';
import { parseBearerToken } from '../auth/bearer';
import type { Db } from '../db/engine/open-database';
import { findSessionUser } from '../db/sessions';
import { hashSessionToken } from '../db/session-token';
import type { SessionAuth } from '../auth/session-auth';
import { countSocketRefusal } from './refusals';
import { tooManyRequests, type RateLimiter } from '../security/rate-limit';
import type { RealtimeSocket } from './types';

/**
 * Refuses the connection unless auth.token is a live (unrevoked, unexpired) session of an active
 * user whose Firebase account is not disabled or deleted, and within the `connect` budget of the
 * token and of the user.
 */
export function handshakeAuth(db: Db, log: FastifyBaseLogger, { rules, accountCheck }: SessionAuth, connections: RateLimiter) {
  return async (socket: RealtimeSocket, next: (err?: ExtendedError) => void) => {
    // A client fault: counted against the address with why (never the token), detail at debug.
    const unauthorized = (reason: string) => {
      log.debug({ socketId: socket.id, reason }, 'socket handshake refused');
      countSocketRefusal(socket, `socket handshake refused: ${reason}`);
      next(new Error('Unauthorized'));
    };
    const auth: unknown = socket.handshake.auth;
    const token = parseBearerToken((auth as { token?: unknown } | null)?.token);
    if (!token) return unauthorized('no token');
    // Counted into the caller's summary line like every refusal, never a line each: an account
    // reconnecting in a loop would otherwise write one per attempt.
    const limited = (retryAfterSeconds: number, userId?: number) => {
      log.debug({ socketId: socket.id, retryAfterSeconds }, 'socket handshake rate limited');
      countSocketRefusal(socket, 'rate limited: connect', undefined, userId);
      next(new Error(tooManyRequests(retryAfterSeconds).msg));
    };
    try {
      // Every socket opened is priced (config.ts, `connect`), by its token first: a client that
      // keeps reconnecting past its budget is refused before its session is read, so its refusals
      // cost the database nothing. Then by its account, which all its devices share.
      const byToken = await connections.take(`token:${hashSessionToken(token)}`);
      if (!byToken.allowed) return limited(byToken.retryAfterSeconds);
      const session = await findSessionUser(db, token, rules);
      if (!session) return unauthorized('unknown, revoked or expired session');
      if (!session.user.isActive) return unauthorized('deactivated account');
      if (!(await accountCheck.stillValid(session.user))) return unauthorized('firebase account disabled or deleted');
      const byAccount = await connections.take(session.user.id);
      if (!byAccount.allowed) return limited(byAccount.retryAfterSeconds, session.user.id);
      socket.data.userId = session.user.id;
      socket.data.sessionId = session.sessionId;
      next();
    } catch (error) {
      log.error({ err: error, socketId: socket.id }, 'socket handshake failed');
      next(new Error('Internal server error'));
    }
  };
}
