// Who may see whose presence, and the durable half of presence: users.last_seen_at. Whether
// someone is online right now is not stored here (server/realtime/presence/).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { blockedEitherWay } from './safety-rules';
import { follows, users } from './schema';

export interface PresenceSubject {
  id: number;
  /** They share their presence now (the setting): what they do may be told. */
  shown: boolean;
  lastSeenAt: Date | null;
}

/**
 * Of `subjectIds`, those who let `viewerId` see their presence: active people who reached out to
 * the viewer (they follow the viewer, or have written to them; docs/DECISIONS.md, "Live
 * signals"), with whether they share it at the moment. Nobody, if the viewer hides their own
 * presence or is not active. Following or writing to a stranger shows the stranger's to no one,
 * and a block either way hides each from the other.
 */
export async function presenceSubjects(db: Db, viewerId: number, subjectIds: readonly number[]): Promise<PresenceSubject[]> {
  const ids = [...new Set(subjectIds)].filter((id) => id !== viewerId);
  if (ids.length === 0) return [];
  // Their member row in the viewer's direct conversation with them says whether they wrote there:
  // the viewer's list row by its peer key, then the member row by its primary key.
  const wroteToViewer = sql`exists (select 1 from account_conversations pa
    join conversation_members pm on pm.conversation_id = pa.conversation_id and pm.user_id = ${users.id}
    where pa.user_id = ${viewerId}::int and pa.peer_id = ${users.id} and pm.wrote)`;
  const followsViewer = sql`exists (select 1 from ${follows} pf where pf.follower_id = ${users.id} and pf.followee_id = ${viewerId})`;
  const viewerShares = sql`exists (select 1 from ${users} pv where pv.id = ${viewerId} and pv.is_active and pv.show_presence)`;
  return db
    .select({ id: users.id, shown: users.showPresence, lastSeenAt: users.lastSeenAt })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        eq(users.isActive, true),
        viewerShares,
        sql`(${followsViewer} or ${wroteToViewer})`,
        sql`not ${blockedEitherWay(sql`${users.id}`, viewerId)}`,
      ),
    );
}

/** Does `subjectId` still let `viewerId` see their presence (whether or not they share it now)? */
export async function mayWatchPresence(db: Db, viewerId: number, subjectId: number): Promise<boolean> {
  return (await presenceSubjects(db, viewerId, [subjectId])).length > 0;
}

/** Whether `userId`'s presence may be told to anyone at all right now. */
export async function presenceShared(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ shared: sql<boolean>`${users.isActive} and ${users.showPresence}` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.shared ?? false;
}

export async function lastSeenOf(db: Db, userId: number): Promise<Date | null> {
  const [row] = await db.select({ lastSeenAt: users.lastSeenAt }).from(users).where(eq(users.id, userId));
  return row?.lastSeenAt ?? null;
}

// Two bind parameters a row: well under Postgres' 65,535 per statement.
const LAST_SEEN_CHUNK = 5_000;

/** What may be told about someone who just went offline. */
export type Audience = 'shown' | 'hidden' | 'gone';

/**
 * Users went offline (one whose last tab closed, or all of a node that stopped): stored, a few
 * thousand a statement. Returns, per user, whether they share their presence (`shown`), hide it
 * (`hidden`), or their account was deactivated (`gone`).
 */
export async function recordLastSeen(db: Db, seen: readonly { userId: number; at: Date }[]): Promise<Map<number, Audience>> {
  const audiences = new Map<number, Audience>();
  for (let start = 0; start < seen.length; start += LAST_SEEN_CHUNK) {
    const values = sql.join(
      seen.slice(start, start + LAST_SEEN_CHUNK).map(({ userId, at }) => sql`(${userId}::int, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    const updated = await rows<{ id: number | string; active: boolean; shown: boolean }>(
      db,
      sql`update ${users} set last_seen_at = seen.at
        from (values ${values}) as seen(id, at)
        where ${users.id} = seen.id
        returning ${users.id} as id, ${users.isActive} as active, ${users.showPresence} as shown`,
    );
    for (const row of updated) audiences.set(Number(row.id), !row.active ? 'gone' : row.shown ? 'shown' : 'hidden');
  }
  return audiences;
}
