import { eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { touchConversations } from './conversations';
import { lockUsersInOrder } from './safety-rules';
import { blocks, conversations, follows, messages, pushSubscriptions, sessions, uploads, users } from './schema';

/**
 * Deletes the account (docs/DECISIONS.md, "Deleting an account"), in one transaction: its profile,
 * sessions, Web Push subscriptions, follows, blocks, conversation list and upload rows go;
 * messages stay, because each one is also the other person's record, and those that carried one
 * of its uploads say the file was removed. The users row stays as a tombstone (no name, email, avatar or Firebase uid, inactive,
 * deleted_at set) that those messages point to; signing in again with the same Firebase account
 * makes a new, empty account. Reports stay for the moderators. Returns the storage keys of the
 * erased uploads: the caller removes the files once the rows are gone. Null for an unknown user.
 */
export async function deleteAccount(db: Db, userId: number): Promise<{ storageKeys: string[] } | null> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [userId]);
    const owned = await tx.select({ id: uploads.id, storageKey: uploads.storageKey }).from(uploads).where(eq(uploads.ownerId, userId));
    const ids = owned.map((upload) => upload.id);
    if (ids.length > 0) {
      await tx.update(messages).set({ attachmentId: null, attachmentRemoved: true }).where(inArray(messages.attachmentId, ids));
      await tx.delete(uploads).where(eq(uploads.ownerId, userId));
    }
    // Every browser registered for Web Push, whatever session registered it.
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(follows).where(or(eq(follows.followerId, userId), eq(follows.followeeId, userId)));
    await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
    // Rows the pair model's releases left (nothing writes them now; the contract step drops them).
    await tx.delete(conversations).where(eq(conversations.userId, userId));
    // The account leaves its conversations
    // as the migration recorded earlier deletions, keeping its window there (its member row and
    // list row say until when). Found through its own list rows, keyed by the account.
    await tx.execute(sql`
      with left_conversations as (
        update account_conversations set left_at = now() where user_id = ${userId} and left_at is null
        returning conversation_id
      )
      update conversation_members set left_seq = c.last_seq, left_at = now(), left_reason = 'deleted'
      from left_conversations l join conversations_v2 c on c.id = l.conversation_id
      where conversation_members.conversation_id = l.conversation_id and conversation_members.user_id = ${userId}`);
    // The other people's rows now say "Deleted account": named to their catch-up.
    await touchConversations(tx, userId);
    const [tombstone] = await tx
      .update(users)
      .set({
        firebaseUid: sql`'deleted:' || ${users.id}`,
        username: null,
        email: null,
        avatar: null,
        usernameChosenAt: null,
        avatarChosenAt: null,
        isActive: false,
        deletedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    return tombstone ? { storageKeys: owned.map((upload) => upload.storageKey) } : null;
  });
}
