// The rules blocks and "who can message me" impose, as SQL pieces shared by the queries that
// apply them (people, conversations, unread counts), and the sentence a refused follow uses
// (a refused message's is the contract's CANNOT_MESSAGE).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './engine/open-database';

/** What a refused follow says, whichever side blocked. */
export const CANNOT_FOLLOW = "You can't follow this person.";

/** True when a blocked b or b blocked a. The aliases are the subqueries' own (bk1, bk2). */
export function blockedEitherWay(a: SQL | number, b: SQL | number): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from blocks bk1 where bk1.blocker_id = ${a} and bk1.blocked_id = ${b})
    or exists (select 1 from blocks bk2 where bk2.blocker_id = ${b} and bk2.blocked_id = ${a}))`;
}

/** True when `blocker` blocked `blocked`. */
export function hasBlocked(blocker: SQL | number, blocked: SQL | number): SQL<boolean> {
  return sql<boolean>`exists (select 1 from blocks bk3 where bk3.blocker_id = ${blocker} and bk3.blocked_id = ${blocked})`;
}

/**
 * Whether a message from `sender` to the user row `recipient` (a `users` alias with is_active and
 * message_policy) would be accepted now: the same rule as the send path's findRefusedPairs
 * (message-batch-sql.ts), for showing it before anyone types.
 */
export function canMessage(sender: SQL | number, recipient: SQL, recipientId: SQL): SQL<boolean> {
  return sql<boolean>`(${recipient}.is_active and not ${blockedEitherWay(sender, recipientId)}
    and (${recipient}.message_policy = 'everyone'
      or exists (select 1 from account_conversations cm where cm.user_id = ${recipientId} and cm.peer_id = ${sender})
      or (${recipient}.message_policy = 'following'
        and exists (select 1 from follows fm where fm.follower_id = ${recipientId} and fm.followee_id = ${sender}))))`;
}

/**
 * Locks the users' rows, lowest id first, as the send path's batches do (message-batch-sql.ts's
 * lockUsers): a block, a follow and a batch touching the same people take turns, and in one order.
 */
export async function lockUsersInOrder(db: Db, ids: readonly number[]): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await db.execute(sql`select id from users where id in (${sql.join(sorted.map((id) => sql`${id}`), sql`, `)}) order by id for update`);
}
