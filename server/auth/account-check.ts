// A Parley session outlives the Firebase sign-in that opened it, so the Firebase account is
// looked up again every few minutes per user: disabled or deleted, its sessions end. The time of
// the last lookup is users.firebase_checked_at, shared by every node; a Firebase outage ends
// nobody's session.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/engine/open-database';
import { users, type UserRow } from '../db/schema';
import { deleteUserPushSubscriptions } from '../db/push-subscriptions';
import { revokeUserSessions } from '../db/sessions';
import { withTimeout } from '../with-timeout';
import type { FirebaseTokenVerifier } from './firebase-verifier';

export interface AccountCheck {
  /**
   * False when the user's Firebase account turned out disabled or deleted (their sessions are
   * then revoked and their sockets disconnected); true otherwise, including when the lookup was
   * not due, another request or node is making it, or Firebase did not answer.
   */
  stillValid(user: UserRow): Promise<boolean>;
}

export interface AccountCheckDeps {
  db: Db;
  verifier: Pick<FirebaseTokenVerifier, 'accountStatus'>;
  intervalMs: number;
  log: FastifyBaseLogger;
  /** Closes the sockets of revoked sessions (on every node, through the adapter). */
  disconnectSession(sessionId: number): void;
}

// A lookup that takes longer is treated as an outage: the request it holds up goes on.
const LOOKUP_TIMEOUT_MS = 3_000;
// During an outage every user's lookup fails: one warning a minute says so, with the count.
const OUTAGE_WARNING_EVERY_MS = 60_000;

export function createAccountCheck({ db, verifier, intervalMs, log, disconnectSession }: AccountCheckDeps): AccountCheck {
  let outage = { warnedAt: 0, failures: 0 };

  /** Takes this interval's lookup for the user; false when it is not due or someone else took it. */
  async function claim(userId: number): Promise<boolean> {
    const due = or(isNull(users.firebaseCheckedAt), lt(users.firebaseCheckedAt, sql`now() - make_interval(secs => ${intervalMs / 1000})`));
    const rows = await db
      .update(users)
      .set({ firebaseCheckedAt: sql`now()` })
      .where(and(eq(users.id, userId), intervalMs > 0 ? due : undefined))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  function noteOutage(error: unknown): void {
    outage.failures += 1;
    if (Date.now() - outage.warnedAt < OUTAGE_WARNING_EVERY_MS) return;
    log.warn({ err: error, failures: outage.failures }, 'firebase account lookup failed; sessions stay valid meanwhile');
    outage = { warnedAt: Date.now(), failures: 0 };
  }

  async function endSessions(userId: number): Promise<number[]> {
    const revoked = await revokeUserSessions(db, userId);
    // Their browsers get no more pushes either: the sessions that registered them are over.
    await deleteUserPushSubscriptions(db, userId);
    // After the caller has answered: a socket event that found the account gone gets its refusal
    // ack before its socket closes (promise callbacks all run before setImmediate's).
    setImmediate(() => revoked.forEach(disconnectSession));
    return revoked;
  }

  return {
    async stillValid(user) {
      const checkedAt = user.firebaseCheckedAt?.getTime();
      if (checkedAt !== undefined && Date.now() - checkedAt < intervalMs) return true;
      if (!(await claim(user.id))) return true;
      let status;
      try {
        status = await withTimeout(verifier.accountStatus(user.firebaseUid), LOOKUP_TIMEOUT_MS, 'Firebase did not answer in time');
      } catch (error) {
        noteOutage(error);
        return true;
      }
      if (status === 'active') return true;
      const revoked = await endSessions(user.id);
      log.info({ userId: user.id, firebase: status, sessions: revoked.length }, 'firebase account gone: sessions ended');
      return false;
    },
  };
}
