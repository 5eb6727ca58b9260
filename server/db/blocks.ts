import { and, desc, eq, or } from 'drizzle-orm';
import type { BlockedUser, FollowedPayload } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { touchConversations } from './conversations';
import { countFollowers } from './people';
import { lockUsersInOrder } from './safety-rules';
import { blocks, follows, users } from './schema';

/** Most people GET /api/blocks lists (newest first); nobody is expected near it. */
const BLOCK_LIST_LIMIT = 1000;

export interface BlockChange {
  /** False when it already was so. */
  changed: boolean;
  /** Follows between the two that the block removed, as `followed`/`follower` report an unfollow. */
  removedFollows: FollowedPayload[];
}

/**
 * blockerId blocks blockedId, idempotently, and the follows between them (both ways) end. Both
 * users are locked first, in id order, as a message batch and a follow lock them: a message or a
 * follow racing the block is either committed before it or refused after it, never in between.
 */
export async function blockUser(db: Db, blockerId: number, blockedId: number): Promise<BlockChange> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [blockerId, blockedId]);
    const inserted = await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing().returning({ id: blocks.blockerId });
    // The blocker's list no longer shows the conversation: named to their other devices' catch-up.
    if (inserted.length > 0) await touchConversations(tx, blockerId, blockedId);
    const removed = await tx
      .delete(follows)
      .where(
        or(
          and(eq(follows.followerId, blockerId), eq(follows.followeeId, blockedId)),
          and(eq(follows.followerId, blockedId), eq(follows.followeeId, blockerId)),
        ),
      )
      .returning({ followerId: follows.followerId, followeeId: follows.followeeId });
    const removedFollows: FollowedPayload[] = [];
    for (const { followerId, followeeId } of removed) {
      removedFollows.push({
        follower_id: followerId,
        followee_id: followeeId,
        following: false,
        followers_count: await countFollowers(tx, followeeId),
      });
    }
    return { changed: inserted.length > 0, removedFollows };
  });
}

/** Lifts the block (idempotent); follows it removed stay removed. Returns whether one existed. */
export async function unblockUser(db: Db, blockerId: number, blockedId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [blockerId, blockedId]);
    const deleted = await tx
      .delete(blocks)
      .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
      .returning({ id: blocks.blockedId });
    // The conversation is back in the blocker's list.
    if (deleted.length > 0) await touchConversations(tx, blockerId, blockedId);
    return deleted.length > 0;
  });
}

/** The people userId blocked, newest first; inactive accounts are invisible here as everywhere. */
export async function listBlocks(db: Db, userId: number): Promise<BlockedUser[]> {
  const rows = await db
    .select({ id: users.id, username: users.username, avatar: users.avatar, blockedAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(and(eq(blocks.blockerId, userId), eq(users.isActive, true)))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId))
    .limit(BLOCK_LIST_LIMIT);
  return rows.map(({ blockedAt, ...user }) => ({ ...user, blocked_at: blockedAt.toISOString() }));
}
