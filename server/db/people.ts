import { and, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Profile, SearchResult, UserSummary } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { toKeysetPage, type KeysetPage } from './engine/paging';
import { rows } from './engine/raw-rows';
import { blockedEitherWay, canMessage, hasBlocked, lockUsersInOrder } from './safety-rules';
import { follows, users } from './schema';
import { searchQuery, searchText, searchVector } from './tables/search';

// The subqueries below name their own aliases (vf, fv, cf, cu), so they stay unambiguous inside
// queries that join follows or users themselves.

/** The columns of a UserSummary for the `users` row in scope, as seen by `viewerId`. Never the email. */
export function userSummaryColumns(viewerId: number) {
  return {
    id: users.id,
    username: users.username,
    avatar: users.avatar,
    is_following: sql<boolean>`exists (select 1 from ${follows} vf where vf.follower_id = ${viewerId} and vf.followee_id = ${users.id})`,
    follows_you: sql<boolean>`exists (select 1 from ${follows} fv where fv.follower_id = ${users.id} and fv.followee_id = ${viewerId})`,
    deleted: sql<boolean>`(${users.deletedAt} is not null)`,
  };
}

// Enough for any name; more words would only make the query dearer.
const MAX_SEARCH_WORDS = 8;

/**
 * The words of a search: runs of letters, combining marks and digits in any script (composed, so
 * "é" typed as e and an accent is one letter). Everything else separates words, so nothing the
 * caller types reaches a tsquery or a LIKE pattern as an operator or a wildcard.
 */
export function searchWords(query: string): string[] {
  return (query.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).slice(0, MAX_SEARCH_WORDS);
}

/** A word this long is looked for anywhere in a name; a shorter one only at the start of a word (it would match too much). */
const ANYWHERE_FROM = 3;

/** LIKE's wildcards and escape character in an SQL text value, taken literally. */
const likeLiteral = (value: SQL) => sql`replace(replace(replace(${value}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;

/**
 * Active users other than the viewer whose username holds each word of `query`, or whose email is
 * exactly `query`, leaving out anyone the viewer blocked or who blocked the viewer (neither finds
 * the other). Names and words are compared folded (searchText: no accents, no case, so "nunez"
 * finds "Núñez"); a word of three letters or more may be anywhere in the name ("kafor" finds
 * "Okafor"), a shorter one must start one of its words ("bob d" finds "Bob Dupont"). An email is
 * never matched by a part of it: search must not reveal addresses a character at a time.
 * Best matches first: the whole name or the email, then names starting with the query, then names
 * where every word starts a word, then the rest (middles of words); by folded name within each. Served by
 * users_username_trgm_idx (the long words), users_username_search_idx (the short ones) and
 * users_email_lower_idx, then two primary-key probes of blocks per match; only the matches are sorted.
 * Each result says whether the viewer may message them (canMessage: a few more probes per result).
 */
export async function searchUsers(db: Db, viewerId: number, query: string, limit: number): Promise<SearchResult[]> {
  return (await searchUsersQuery(db, viewerId, query, limit)) ?? [];
}

/** searchUsers' query, for EXPLAIN; null when the query has nothing to match with. */
export function searchUsersQuery(db: Db, viewerId: number, query: string, limit: number) {
  const text = query.trim();
  const words = searchWords(text);
  const name = searchText(users.username);
  const anywhere = words.filter((word) => [...word].length >= ANYWHERE_FROM);
  const wordStarts = words.filter((word) => [...word].length < ANYWHERE_FROM);
  const byName =
    words.length > 0
      ? and(
          ...anywhere.map((word) => sql`${name} like '%' || ${likeLiteral(searchText(sql`${word}::text`))} || '%'`),
          wordStarts.length > 0 ? sql`${searchVector(users.username)} @@ ${searchQuery(sql`${wordStarts.join(' ')}::text`)}` : undefined,
        )
      : undefined;
  // Only something shaped like an address can equal one; the index answers the rest at once anyway.
  const byEmail = text.includes('@') ? sql`lower(${users.email}) = lower(${text})` : undefined;
  if (!byName && !byEmail) return null;
  const typed = searchText(sql`${text}::text`);
  const rank = sql`case
    when ${name} = ${typed} or ${byEmail ?? sql`false`} then 0
    when starts_with(${name}, ${typed}) then 1
    when ${searchVector(users.username)} @@ ${searchQuery(sql`${text}::text`)} then 2
    else 3 end`;
  return db
    // can_message: the profile's rule, so a result offers Message only to someone who would accept it.
    .select({ ...userSummaryColumns(viewerId), can_message: canMessage(viewerId, sql.raw('"users"'), sql`${users.id}`) })
    .from(users)
    .where(and(eq(users.isActive, true), ne(users.id, viewerId), or(byName, byEmail), sql`not ${blockedEitherWay(viewerId, sql`${users.id}`)}`))
    .orderBy(rank, sql`${name} nulls last`, users.id)
    .limit(limit);
}

/** Follows between two users that both are active: inactive accounts are invisible, in counts too. */
function activeFollowCount(side: 'followers' | 'following', userId: SQL): SQL<number> {
  const [self, other] = side === 'followers' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id'];
  return sql<number>`(select count(*)::int from ${follows} cf join ${users} cu on cu.id = cf.${sql.raw(other)} where cf.${sql.raw(self)} = ${userId} and cu.is_active)`;
}

/**
 * An active user's profile as `viewerId` sees it, or null for unknown and inactive users. Someone
 * who blocked the viewer still has a profile (a 404 would say more than "you can't message this
 * person"): can_message is false and following them is refused.
 */
export async function getProfile(db: Db, viewerId: number, id: number): Promise<Profile | null> {
  const [row] = await db
    .select({
      ...userSummaryColumns(viewerId),
      followers_count: activeFollowCount('followers', sql`${users.id}`),
      following_count: activeFollowCount('following', sql`${users.id}`),
      blocked: hasBlocked(viewerId, sql`${users.id}`),
      can_message: canMessage(viewerId, sql.raw('"users"'), sql`${users.id}`),
      // One probe of the viewer's list rows by the other person (account_conversations_peer_idx).
      conversation_id: sql<number | null>`(select ac.conversation_id::float8 from account_conversations ac where ac.user_id = ${viewerId} and ac.peer_id = ${users.id})`,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)))
    .limit(1);
  return row ?? null;
}

export async function countFollowers(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(and(eq(follows.followeeId, userId), eq(users.isActive, true)));
  return row?.value ?? 0;
}

/** Keyset of follow lists: newest follow first, ties broken by the other user's id. */
export interface FollowKey {
  followedAt: Date;
  userId: number;
}

/**
 * One page of the people who follow `userId` ('followers') or whom `userId` follows ('following'),
 * newest follow first, as `viewerId` sees them. Served by follows_followee_idx / follows_follower_recent_idx.
 */
export async function listFollows(
  db: Db,
  side: 'followers' | 'following',
  viewerId: number,
  userId: number,
  after: FollowKey | null,
  limit: number,
): Promise<KeysetPage<UserSummary, FollowKey>> {
  const [self, other] =
    side === 'followers' ? [follows.followeeId, follows.followerId] : [follows.followerId, follows.followeeId];
  const rows = await db
    .select({ summary: userSummaryColumns(viewerId), followedAt: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, other))
    .where(
      and(
        eq(self, userId),
        eq(users.isActive, true),
        after ? sql`(${follows.createdAt}, ${other}) < (${after.followedAt.toISOString()}::timestamptz, ${after.userId})` : undefined,
      ),
    )
    .orderBy(desc(follows.createdAt), desc(other))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => ({ followedAt: row.followedAt, userId: row.summary.id }));
  return { results: page.results.map((row) => row.summary), next: page.next };
}

export interface FollowChange {
  /** False when the follow already was in the requested state. */
  changed: boolean;
  /** The followee's follower count after the change. */
  followersCount: number;
}

/**
 * Follows (or unfollows) idempotently; a follow between people one of whom blocked the other is
 * refused ('not_allowed'). The caller checks that the followee is someone else, and active. Both
 * users are locked first, in id order, as blocking does (blocks.ts): a follow and a block of the
 * same pair take turns, so no follow survives a block committed alongside it.
 */
export async function setFollow(
  db: Db,
  followerId: number,
  followeeId: number,
  follow: boolean,
): Promise<FollowChange | 'not_allowed'> {
  return db.transaction(async (tx) => {
    if (follow) {
      // Two statements: the check must take its snapshot after the locks are granted.
      await lockUsersInOrder(tx, [followerId, followeeId]);
      const [row] = await rows<{ blocked: boolean }>(tx, sql`select ${blockedEitherWay(followerId, followeeId)} as blocked`);
      if (row?.blocked) return 'not_allowed' as const;
    }
    const changed = follow
      ? await tx.insert(follows).values({ followerId, followeeId }).onConflictDoNothing().returning({ id: follows.followerId })
      : await tx
          .delete(follows)
          .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
          .returning({ id: follows.followerId });
    return { changed: changed.length > 0, followersCount: await countFollowers(tx, followeeId) };
  });
}
