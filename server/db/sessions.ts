import { and, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { DEFAULT_MAX_SESSIONS_PER_USER, DEFAULT_SESSION_RULES, type SessionRules } from './session-rules';
import { generateSessionToken, hashSessionToken } from './session-token';
import type { Db } from './engine/open-database';
import { preparedQuery } from './engine/prepared-query';
import { sessions, users, type UserRow } from './schema';

// last_used_at drives the idle lifetime (counted in days): one write per minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionUser {
  sessionId: number;
  user: UserRow;
}

/** Issued, not revoked, used within the idle lifetime and younger than the absolute one. */
export function live(rules: Pick<SessionRules, 'idleMs' | 'maxMs'>): SQL | undefined {
  return liveWithin(rules.idleMs / 1000, rules.maxMs / 1000);
}

/** live, with the lifetimes in seconds as values or as a prepared query's placeholders. */
const liveWithin = (idleS: number | Placeholder, maxS: number | Placeholder) =>
  and(
    isNull(sessions.revokedAt),
    sql`${sessions.lastUsedAt} > now() - make_interval(secs => ${idleS})`,
    sql`${sessions.createdAt} > now() - make_interval(secs => ${maxS})`,
  );

/**
 * Returns the raw token, which is shown to the client once; only its hash is stored. Past
 * `maxPerUser` live sessions, the least recently used of the user's others are ended: their ids
 * are in `ended` (their sockets are the caller's to close).
 */
export async function createSession(db: Db, userId: number, maxPerUser = DEFAULT_MAX_SESSIONS_PER_USER): Promise<{ token: string; sessionId: number; ended: number[] }> {
  const token = generateSessionToken();
  const [row] = await db
    .insert(sessions)
    .values({ userId, tokenHash: hashSessionToken(token) })
    .returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned no row');
  // Sessions past their lifetimes are dead already: only unrevoked ones count, newest use first.
  const ended = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      sql`${sessions.id} in (select ${sessions.id} from ${sessions} where ${sessions.userId} = ${userId} and ${sessions.revokedAt} is null
        order by ${sessions.lastUsedAt} desc, ${sessions.id} desc offset ${maxPerUser})`,
    )
    .returning({ id: sessions.id });
  return { token, sessionId: row.id, ended: ended.map(({ id }) => id) };
}

/** A live session (see live) and its user, found by the token's hash or by the session's id. */
const liveSession = (by: 'token' | 'id') =>
  preparedQuery((db) =>
    db
      .select({ sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          by === 'token' ? eq(sessions.tokenHash, sql.placeholder('key')) : eq(sessions.id, sql.placeholder('key')),
          liveWithin(sql.placeholder('idleS'), sql.placeholder('maxS')),
        ),
      )
      .limit(1)
      .prepare(`live_session_by_${by}`),
  );
const LIVE_SESSION = { token: liveSession('token'), id: liveSession('id') };

async function findLive(db: Db, by: keyof typeof LIVE_SESSION, key: string | number, rules: Pick<SessionRules, 'idleMs' | 'maxMs'>): Promise<SessionUser | null> {
  const [row] = await LIVE_SESSION[by](db).execute({ key, idleS: rules.idleMs / 1000, maxS: rules.maxMs / 1000 });
  if (!row) return null;
  // Using a session keeps it alive (the idle lifetime counts from here).
  if (Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.id, row.sessionId));
  }
  return { sessionId: row.sessionId, user: row.user };
}

/**
 * The session's user, or null when the token is unknown, revoked or expired (idle or too old).
 * Inactive users are returned.
 */
export function findSessionUser(db: Db, rawToken: string, rules: SessionRules = DEFAULT_SESSION_RULES): Promise<SessionUser | null> {
  return findLive(db, 'token', hashSessionToken(rawToken), rules);
}

/** findSessionUser by session id: an open socket checking its session again. */
export function findSessionById(db: Db, sessionId: number, rules: SessionRules = DEFAULT_SESSION_RULES): Promise<SessionUser | null> {
  return findLive(db, 'id', sessionId, rules);
}

/** Revokes every session of the user still unrevoked; returns their ids. */
export async function revokeUserSessions(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
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
