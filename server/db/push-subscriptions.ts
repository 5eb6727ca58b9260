// Web Push subscriptions: one row per browser, owned by the user signed in there.
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { pushSubscriptions } from './schema';

/**
 * How many browsers one account may have registered. A person's devices fit easily; past it the
 * least recently registered goes, so a script cannot grow the table without bound.
 */
const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  userId: number;
  sessionId: number;
}

/**
 * Registers the browser for `userId`. An endpoint already known (the same browser again, or a new
 * sign-in there) is taken over with its new keys and session. Returns whether it was new.
 */
export async function savePushSubscription(db: Db, subscription: NewPushSubscription): Promise<{ created: boolean }> {
  const [row] = await db
    .insert(pushSubscriptions)
    .values(subscription)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: subscription.userId,
        sessionId: subscription.sessionId,
        p256dh: subscription.p256dh,
        auth: subscription.auth,
        updatedAt: sql`now()`,
      },
    })
    // xmax is 0 for a row this statement inserted, the updating transaction's id otherwise.
    .returning({ created: sql<boolean>`(xmax = 0)` });
  await trimPushSubscriptions(db, subscription.userId);
  return { created: row?.created ?? false };
}

async function trimPushSubscriptions(db: Db, userId: number): Promise<void> {
  const keep = db
    .select({ endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(sql`${pushSubscriptions.updatedAt} desc`)
    .limit(MAX_PUSH_SUBSCRIPTIONS_PER_USER);
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.endpoint, keep)));
}

/** Removes the caller's own registration of `endpoint`; false when they had none. */
export async function deletePushSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .returning({ endpoint: pushSubscriptions.endpoint });
  return rows.length > 0;
}

/** Sign-out: the device signed in with that session stops receiving pushes. */
export async function deleteSessionPushSubscriptions(db: Db, sessionId: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/** Deactivation: none of the account's devices receives pushes any more. */
export async function deleteUserPushSubscriptions(db: Db, userId: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** Endpoints the push service says are gone (404/410). */
export async function deleteExpiredPushSubscriptions(db: Db, endpoints: readonly string[]): Promise<void> {
  if (endpoints.length === 0) return;
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.endpoint, [...endpoints]));
}
