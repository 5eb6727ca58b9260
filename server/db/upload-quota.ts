// Per-user upload quota: the bytes of a user's uploads plus those of their uploads in progress.
// An upload reserves its declared length before a byte of its body is read, under a per-user lock,
// so concurrent uploads (on any node sharing the database) cannot together pass the quota.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { createUpload, type NewUpload } from './uploads';
import { uploadReservations, users, type UploadRow } from './schema';

/** An upload in progress that has not finished within this is taken for dead (its node was killed). */
export const RESERVATION_TTL_MS = 3_600_000;
/** The advisory lock space of quota checks (pg_advisory_xact_lock(space, user id)); any other use picks another number. */
const QUOTA_LOCK_SPACE = 7_210_001;

export interface Usage {
  usedBytes: number;
  quotaBytes: number | null;
}

const usedSql = (userId: number) => sql`
  select (select coalesce(sum(size), 0) from uploads where owner_id = ${userId})
       + (select coalesce(sum(bytes), 0) from upload_reservations
          where user_id = ${userId} and created_at > now() - make_interval(secs => ${RESERVATION_TTL_MS / 1000})) as used`;

async function usedBytes(db: Pick<Db, 'execute'>, userId: number): Promise<number> {
  const result = (await db.execute(usedSql(userId))) as unknown as { rows: { used: string | number }[] };
  return Number(result.rows[0]?.used ?? 0);
}

/** What the user's uploads (finished and in progress) take, against their quota. */
export async function uploadUsage(db: Db, userId: number, quotaBytes: number | null): Promise<Usage> {
  return { usedBytes: await usedBytes(db, userId), quotaBytes };
}

export type Reservation = { reserved: number | null } | { refused: Usage };

/**
 * Holds `bytes` against the user's quota, or refuses with what is used when they would pass it.
 * The check and the hold are one transaction under a per-user advisory lock: two uploads of the
 * same user (on any node sharing the database) take turns, so together they cannot overshoot.
 * No quota: nothing to hold (`reserved: null`).
 */
export async function reserveUpload(db: Db, userId: number, bytes: number, quotaBytes: number | null): Promise<Reservation> {
  if (quotaBytes === null) return { reserved: null };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${QUOTA_LOCK_SPACE}, ${userId})`);
    const used = await usedBytes(tx, userId);
    if (used + bytes > quotaBytes) return { refused: { usedBytes: used, quotaBytes } };
    const [row] = await tx.insert(uploadReservations).values({ userId, bytes }).returning({ id: uploadReservations.id });
    return { reserved: row!.id };
  });
}

/** The upload is stored: its row replaces its reservation, in one transaction (the bytes never count twice or not at all). */
/**
 * The upload's row, once its bytes are stored; null when its owner's account was deleted meanwhile
 * (the caller removes the file). The owner's row is read FOR SHARE: a deletion running now either
 * finishes first (and this refuses) or waits and then erases this upload with the rest.
 */
export async function completeUpload(db: Db, reservation: number | null, upload: NewUpload): Promise<UploadRow | null> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, upload.ownerId), isNull(users.deletedAt))).for('share');
    if (!owner) return null;
    if (reservation !== null) {
      await tx.delete(uploadReservations).where(and(eq(uploadReservations.id, reservation), eq(uploadReservations.userId, upload.ownerId)));
    }
    return createUpload(tx, upload);
  });
}

/** The upload failed or was refused: its bytes are free again. */
export async function releaseUpload(db: Db, reservation: number | null): Promise<void> {
  if (reservation !== null) await db.delete(uploadReservations).where(eq(uploadReservations.id, reservation));
}
