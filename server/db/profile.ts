// The user's own profile: the display name and photo they choose (PATCH /api/accounts/profile).
// A chosen value is marked (users.username_chosen_at, avatar_chosen_at) so that sign-ins stop
// overwriting it with the provider's (users.ts, upsertUserFromFirebase). A photo is one of the
// user's uploads; its URL is the upload's own (docs/DECISIONS.md, "Profile").
import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { touchConversations } from './conversations';
import { toAttachment } from './uploads';
import type { Db } from './engine/open-database';
import { hasBlocked, lockUsersInOrder } from './safety-rules';
import { accountConversations, messages, uploads, users, type UserRow } from './schema';

/** The image types a photo may be: those the sniffer recognises and every browser draws. */
const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export interface ProfileChange {
  username?: string;
  /** An upload of the user's to show as their photo; null removes the photo. */
  avatarUploadId?: string | null;
}

export type ProfileUpdate =
  | { ok: true; user: UserRow; changed: boolean; removedStorageKeys: string[] }
  | { ok: false; problem: 'no-user' | 'no-upload' | 'not-image' };

/**
 * Applies `change` in one transaction. The new photo's upload must be the user's and an image; it
 * is marked attached, so the sweeper of unattached uploads leaves it. The photo it replaces is
 * deleted unless a message carries it too; its storage key is returned for the caller to remove
 * the file after the commit. Locks the user's row first, then uploads, in the send path's order,
 * then (when the name or photo changed) the heads of the user's conversations.
 */
export async function updateProfile(db: Db, userId: number, change: ProfileChange): Promise<ProfileUpdate> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [userId]);
    const [before] = await tx.select().from(users).where(eq(users.id, userId));
    if (!before) return { ok: false, problem: 'no-user' } as const;

    const set: PgUpdateSetSource<typeof users> = {};
    if (change.username !== undefined) {
      set.username = change.username;
      set.usernameChosenAt = sql`now()`;
    }
    if (change.avatarUploadId !== undefined) {
      set.avatarChosenAt = sql`now()`;
      set.avatarUploadId = change.avatarUploadId;
      set.avatar = null;
      if (change.avatarUploadId !== null) {
        // Waits for a sweeper holding the row; once it has deleted it, nothing is found here.
        const [upload] = await tx
          .select()
          .from(uploads)
          .where(and(eq(uploads.id, change.avatarUploadId), eq(uploads.ownerId, userId)))
          .for('update');
        if (!upload) return { ok: false, problem: 'no-upload' } as const;
        if (!(AVATAR_MIME_TYPES as readonly string[]).includes(upload.mimeType)) return { ok: false, problem: 'not-image' } as const;
        await tx.update(uploads).set({ attachedAt: sql`coalesce(${uploads.attachedAt}, now())` }).where(eq(uploads.id, upload.id));
        set.avatar = toAttachment(upload).url;
      }
    }

    const [after] = await tx
      .update(users)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning();
    if (!after) return { ok: false, problem: 'no-user' } as const;

    const previous = before.avatarUploadId;
    const removedStorageKeys = previous && previous !== after.avatarUploadId ? await deleteUnlessCarried(tx, previous) : [];
    const changed = before.username !== after.username || before.avatar !== after.avatar;
    // What everyone's list shows of the user moved: `sync_account` names their conversations again,
    // for a device that was not connected to hear \`user_updated\`.
    if (changed) await touchConversations(tx, userId);
    return { ok: true, user: after, changed, removedStorageKeys };
  });
}

/**
 * Deletes a former photo's upload when no message carries it. Its row is locked first (a send
 * attaching it holds it FOR SHARE until it commits), then a second statement, whose snapshot
 * sees that send's message, deletes it only if still nothing carries it (as db/upload-sweep.ts).
 */
async function deleteUnlessCarried(tx: Db, uploadId: string): Promise<string[]> {
  await tx.execute(sql`select id from uploads where id = ${uploadId} for update`);
  const carried = tx.select({ one: sql`1` }).from(messages).where(eq(messages.attachmentId, uploads.id));
  const deleted = await tx
    .delete(uploads)
    .where(and(inArray(uploads.id, [uploadId]), notExists(carried)))
    .returning({ storageKey: uploads.storageKey });
  return deleted.map((row) => row.storageKey);
}

/**
 * Who should hear at once that `userId`'s name or photo changed: the people whose conversation
 * list shows them (everyone with a conversation with them who is active and has not blocked
 * them, as listConversations leaves out the people one blocked). Served by their list rows'
 * primary key (the rows are written for both sides) and a blocks probe per person.
 */
export async function profileWatchers(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(accountConversations)
    .innerJoin(users, eq(users.id, accountConversations.peerId))
    .where(and(eq(accountConversations.userId, userId), eq(users.isActive, true), sql`not ${hasBlocked(sql`${users.id}`, userId)}`));
  return rows.map((row) => row.id);
}
