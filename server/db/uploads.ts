import { and, eq } from 'drizzle-orm';
import type { Attachment } from '../../lib/contract';
import type { Db } from './open-database';
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
