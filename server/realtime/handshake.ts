import type { FastifyBaseLogger } from 'fastify';
import type { ExtendedError } from 'socket.io';
import { OUTDATED_CLIENT_MSG, type ProtocolRefusal } from '../../lib/contract';
import { parseBearerToken } from '../auth/bearer';
import type { Db } from '../db/engine/open-database';
import { findSessionUser } from '../db/sessions';
import { hashSessionToken } from '../db/session-token';
import type { SessionAuth } from '../auth/session-auth';
import { countSocketRefusal } from './refusals';
import { tooManyRequests, type RateLimiter } from '../security/rate-limit';
import type { RealtimeSocket } from './types';

/**
 * The socket protocols this release serves (lib/contract, SOCKET_PROTOCOL): 2, the conversation
 * model's. Protocol 1 (people where 2 names conversations, one stream per account) is no longer
 * served: a tab still speaking it is told to reload (docs/design/conversations.md, 4.3).
 */
const SERVED_PROTOCOLS: readonly number[] = [2];

/** The protocol a handshake asks for: absent is 1 (tabs from before protocols were numbered); anything else not an integer is none. */
function askedProtocol(auth: unknown): number | null {
  const protocol = Object.hasOwn(auth ?? {}, 'protocol') ? (auth as { protocol: unknown }).protocol : undefined;
  if (protocol === undefined) return 1;
  return Number.isSafeInteger(protocol) ? (protocol as number) : null;
}

/**
 * Refuses the connection unless it speaks a protocol this server serves (`OUTDATED_CLIENT_MSG`,
 * the served ones as the error's data: the client reloads), auth.token is a live (unrevoked,
 * unexpired) session of an active user whose Firebase account is not disabled or deleted, and
 * the connection is within the `connect` budget of the token and of the user.
 */
export function handshakeAuth(db: Db, log: FastifyBaseLogger, { rules, accountCheck }: SessionAuth, connections: RateLimiter, protocols: readonly number[] = SERVED_PROTOCOLS) {
  return async (socket: RealtimeSocket, next: (err?: ExtendedError) => void) => {
    // A client fault: counted against the address with why (never the token), detail at debug.
    const unauthorized = (reason: string) => {
      log.debug({ socketId: socket.id, reason }, 'socket handshake refused');
      countSocketRefusal(socket, `socket handshake refused: ${reason}`);
      next(new Error('Unauthorized'));
    };
    const auth: unknown = socket.handshake.auth;
    // Before anything is read or priced: a tab from an older release learns at once that it must reload.
    const protocol = askedProtocol(auth);
    if (protocol === null || !protocols.includes(protocol)) {
      log.debug({ socketId: socket.id, protocol }, 'socket handshake refused: protocol not served');
      countSocketRefusal(socket, 'socket handshake refused: protocol not served');
      const refusal: ExtendedError = new Error(OUTDATED_CLIENT_MSG);
      refusal.data = { protocols: [...protocols] } satisfies ProtocolRefusal;
      return next(refusal);
    }
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
