import { and, eq, isNull, sql } from 'drizzle-orm';
import { generateSessionToken, hashSessionToken } from '../auth/session-token';
import type { Db } from './open-database';
import { sessions, users, type UserRow } from './schema';

// last_used_at is for spotting stale sessions, not an audit log: one write per minute is plenty.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionUser {
  sessionId: number;
  user: UserRow;
}

/** Returns the raw token, which is shown to the client once; only its hash is stored. */
export async function createSession(db: Db, userId: number): Promise<{ token: string; sessionId: number }> {
  const token = generateSessionToken();
  const [row] = await db
    .insert(sessions)
    .values({ userId, tokenHash: hashSessionToken(token) })
    .returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned no row');
  return { token, sessionId: row.id };
}

/** The session's user, or null when the token is unknown or revoked. Inactive users are returned. */
export async function findSessionUser(db: Db, rawToken: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashSessionToken(rawToken)), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) return null;
  if (Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.id, row.sessionId));
  }
  return { sessionId: row.sessionId, user: row.user };
}

/** Returns the revoked session's id, or null when there was no live session for the token. */
export async function revokeSession(db: Db, rawToken: string): Promise<number | null> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.tokenHash, hashSessionToken(rawToken)), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return row?.id ?? null;
}
