import type { FastifyBaseLogger } from 'fastify';
import type { ExtendedError } from 'socket.io';
import { parseBearerToken } from '../auth/bearer';
import type { Db } from '../db/open-database';
import { findSessionUser } from '../db/sessions';
import type { RealtimeSocket } from './types';

/** Refuses the connection unless auth.token is a live session of an active user. */
export function handshakeAuth(db: Db, log: FastifyBaseLogger) {
  return async (socket: RealtimeSocket, next: (err?: ExtendedError) => void) => {
    const auth: unknown = socket.handshake.auth;
    const token = parseBearerToken((auth as { token?: unknown } | null)?.token);
    if (!token) return next(new Error('Unauthorized'));
    try {
      const session = await findSessionUser(db, token);
      if (!session || !session.user.isActive) return next(new Error('Unauthorized'));
      socket.data.userId = session.user.id;
      socket.data.sessionId = session.sessionId;
      next();
    } catch (error) {
      log.error({ err: error }, 'socket handshake failed');
      next(new Error('Internal server error'));
    }
  };
}
