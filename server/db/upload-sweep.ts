// The database half of the sweeper of uploads never attached to a message (storage/upload-sweeper.ts).
import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { messages, uploads } from './schema';
import { RESERVATION_TTL_MS } from './upload-quota';

export interface SweptUpload {
  id: string;
  storageKey: string;
}

/**
 * Deletes up to `limit` uploads created before `before` that no message carries, and returns them
 * (their files are the caller's to remove, after this has committed). Safe with several nodes
 * sharing one Postgres, and with sends attaching these uploads at the same moment:
 * 1. candidates are locked FOR UPDATE SKIP LOCKED: two sweepers never take the same row, and a row
 *    a message batch holds FOR SHARE (message-batch-sql.ts, findUploads) is left for a later round;
 *    a row a batch attached and committed meanwhile is re-checked on its new version and dropped
 *    (attached_at is no longer null);
 * 2. a second statement, with a snapshot taken once the locks are held, deletes only those that
 *    still no message carries. A batch that wants a row after that waits for this commit and then
 *    finds it gone (the send is refused as carrying no upload of the sender's), never a dangling one.
 */
export async function deleteUnattachedUploads(db: Db, before: Date, limit: number): Promise<SweptUpload[]> {
  return db.transaction(async (tx) => {
    const candidates = (await tx.execute(sql`
      select id from uploads
      where attached_at is null and created_at < ${before.toISOString()}::timestamptz
      order by created_at
      limit ${limit}
      for update skip locked`)) as unknown as { rows: { id: string }[] };
    const ids = candidates.rows.map((row) => row.id);
    if (ids.length === 0) return [];
    const carried = tx.select({ one: sql`1` }).from(messages).where(eq(messages.attachmentId, uploads.id));
    return tx
      .delete(uploads)
      .where(and(inArray(uploads.id, ids), notExists(carried)))
      .returning({ id: uploads.id, storageKey: uploads.storageKey });
  });
}

/** Reservations of uploads that cannot still be in progress (their node died mid-upload). */
export async function deleteStaleReservations(db: Db): Promise<number> {
  const result = (await db.execute(sql`
    delete from upload_reservations
    where created_at < now() - make_interval(secs => ${RESERVATION_TTL_MS / 1000})`)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}
