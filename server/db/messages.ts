import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from './open-database';
import { messages, type MessageRow } from './schema';

export interface NewMessage {
  senderId: number;
  recipientId: number;
  clientId: string;
  text: string;
}

export async function insertMessage(db: Db, message: NewMessage): Promise<MessageRow> {
  const [row] = await db.insert(messages).values(message).returning();
  if (!row) throw new Error('message insert returned no row');
  return row;
}

/** Served by the partial index on unread rows. */
export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(messages)
    .where(and(eq(messages.recipientId, userId), isNull(messages.readAt)));
  return row?.value ?? 0;
}
