import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBearerToken } from '../auth/bearer';
import { nowActingFor } from '../db/engine/account-turns';
import type { Db } from '../db/engine/open-database';
import { findSessionUser, type SessionUser } from '../db/sessions';
import { noteCaller } from '../logging/request-logging';
import { limitRequest } from './http-rate-limit';
import { HttpError } from './errors';
import type { SessionAuth } from '../auth/session-auth';

export interface Authenticated extends SessionUser {
  token: string;
}

/** How sessions are judged: their lifetimes and the Firebase account check. */
declare module 'fastify' {
  interface FastifyInstance {
    /** Set by createServer (app.ts), read by authenticate(): routes keep calling authenticate(db, request). */
    sessionAuth: SessionAuth;
  }
}

export function installSessionAuth(app: FastifyInstance, sessionAuth: SessionAuth): void {
  app.decorate('sessionAuth', sessionAuth);
}

/**
 * The caller's live session (not revoked, not expired, its Firebase account not disabled or
 * deleted), or a 401 (which the client turns into a sign-out: docs/CLIENT-RULES.md). Also takes one
 * request from the caller's budget (429 past it): every authenticated route goes through here, so
 * none is left unlimited (security/http-rate-limit.ts).
 */
export async function authenticate(db: Db, request: FastifyRequest): Promise<Authenticated> {
  const token = parseBearerToken(request.headers.authorization);
  if (!token) throw HttpError.msg(401, 'Authentication credentials were not provided.');
  const { rules, accountCheck } = request.server.sessionAuth;
  const session = await findSessionUser(db, token, rules);
  if (!session || !(await accountCheck.stillValid(session.user))) throw HttpError.msg(401, 'Invalid or expired session token.');
  noteCaller(request, session.user.id);
  // The rest of the request's queries are this account's (db/account-turns.ts).
  nowActingFor(session.user.id);
  await limitRequest(request, session.user.id);
  return { ...session, token };
}

/** authenticate, refusing deactivated accounts: only accounts/info answers them (so they sign out). */
export async function authenticateActive(db: Db, request: FastifyRequest): Promise<Authenticated> {
  const auth = await authenticate(db, request);
  if (!auth.user.isActive) throw HttpError.msg(403, 'This account has been deactivated.');
  return auth;
}
