import { and, eq, sql } from 'drizzle-orm';
import type { Language, MessagePolicy, NotificationPreview } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { touchConversations } from './conversations';
import { lockUsersInOrder } from './safety-rules';
import { users, type UserRow } from './schema';

export interface FirebaseProfile {
  firebaseUid: string;
  username: string | null;
  email: string | null;
  avatar: string | null;
  socialType: string;
  /** Firebase has just confirmed the account (a sign-in's revocation check): users.firebase_checked_at. */
  accountCheckedNow?: boolean;
  /** The language a new account starts in; an existing one keeps its own. */
  language?: Language;
}

/**
 * One row per Firebase uid. The name and photo follow the provider on every sign-in until the
 * user chooses their own (db/profile.ts), which then wins; email and social type always follow
 * it; language, settings and is_active belong to us and are left alone (a new account's language
 * is the one its sign-in was shown in).
 */
export async function upsertUserFromFirebase(db: Db, profile: FirebaseProfile): Promise<UserRow> {
  const fromProvider = {
    username: profile.username,
    email: profile.email,
    avatar: profile.avatar,
    socialType: profile.socialType,
    ...(profile.accountCheckedNow ? { firebaseCheckedAt: sql`now()` } : {}),
  };
  const [row] = await db
    .insert(users)
    .values({ firebaseUid: profile.firebaseUid, ...fromProvider, ...(profile.language ? { language: profile.language } : {}) })
    .onConflictDoUpdate({
      target: users.firebaseUid,
      set: {
        ...fromProvider,
        username: sql`case when ${users.usernameChosenAt} is null then excluded.username else ${users.username} end`,
        avatar: sql`case when ${users.avatarChosenAt} is null then excluded.avatar else ${users.avatar} end`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** Whether the Firebase account has signed in before (a first sign-in creates an account). */
export async function hasAccount(db: Db, firebaseUid: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.firebaseUid, firebaseUid)).limit(1);
  return row !== undefined;
}

/**
 * Deactivates or reactivates the account. Its conversations leave or come back to the other
 * people's lists, so their heads are marked for `sync_account` (the user locked first, as every
 * writer of heads locks the people first).
 */
export async function setUserActive(db: Db, id: number, isActive: boolean): Promise<UserRow | null> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [id]);
    const [row] = await tx
      .update(users)
      .set({ isActive, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    if (row) await touchConversations(tx, id);
    return row ?? null;
  });
}

/** The user when they exist and are active: everyone else is invisible to other users. */
export async function findActiveUser(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)))
    .limit(1);
  return row ?? null;
}

export interface UserSettings {
  language?: Language;
  messagePolicy?: MessagePolicy;
  showPresence?: boolean;
  notificationPreview?: NotificationPreview;
  notificationSound?: boolean;
  readReceipts?: boolean;
}

/** Changes the given settings; returns the row as it was before and as it is now. */
export async function updateSettings(db: Db, id: number, settings: UserSettings): Promise<{ before: UserRow; after: UserRow } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!before) return null;
    const [after] = await tx
      .update(users)
      .set({ ...settings, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return after ? { before, after } : null;
  });
}
