import { and, eq, isNull } from 'drizzle-orm';
import type { Attachment } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { uploads, users, type UploadRow } from './schema';

export type NewUpload = Omit<typeof uploads.$inferInsert, 'id' | 'createdAt'>;

/** The row's id is random (see schema): it doubles as the capability to fetch the file. */
export async function createUpload(db: Db, upload: NewUpload): Promise<UploadRow> {
  const [row] = await db.insert(uploads).values(upload).returning();
  if (!row) throw new Error('upload insert returned no row');
  return row;
}

/** The upload, unless its owner's account is deactivated: their files go dark with them. */
export async function findServableUpload(db: Db, id: string): Promise<UploadRow | null> {
  const [row] = await db
    .select({ upload: uploads })
    .from(uploads)
    .innerJoin(users, eq(users.id, uploads.ownerId))
    .where(and(eq(uploads.id, id), eq(users.isActive, true)))
    .limit(1);
  return row?.upload ?? null;
}

export type UnsentUploadDeletion = { deleted: { storageKey: string } } | { refused: 'missing' | 'attached' };

/**
 * Deletes the owner's upload that no message carries yet (taken off the composer before sending),
 * so it stops counting against their quota at once. A message batch attaching it at the same
 * moment holds its row FOR SHARE (message-batch-sql.ts) and sets `attached_at` in the same
 * transaction: this delete waits for that batch and then, re-reading the row, finds it attached
 * and keeps it; a send that comes after finds no upload and is refused. The file is the caller's
 * to remove, after this has committed. Someone else's upload is `missing`, like an unknown id.
 */
export async function deleteUnsentUpload(db: Db, ownerId: number, id: string): Promise<UnsentUploadDeletion> {
  const mine = and(eq(uploads.id, id), eq(uploads.ownerId, ownerId));
  const [row] = await db
    .delete(uploads)
    .where(and(mine, isNull(uploads.attachedAt)))
    .returning({ storageKey: uploads.storageKey });
  if (row) return { deleted: row };
  const [kept] = await db.select({ id: uploads.id }).from(uploads).where(mine).limit(1);
  return { refused: kept ? 'attached' : 'missing' };
}

/** An upload as a message carries it. The name in the URL is cosmetic (downloads keep it); the id finds the file. */
export function toAttachment(row: UploadRow): Attachment {
  return {
    id: row.id,
    name: row.name,
    mime_type: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    url: `/api/uploads/${row.id}/${encodeURIComponent(row.name)}`,
  };
}
