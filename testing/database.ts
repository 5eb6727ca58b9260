// Rows written or read straight in the database, for the server tests and the benchmarks' seeding:
// the app itself stores messages only through the message writer (server/db/message-writer.ts).
import { eq } from 'drizzle-orm';
import { storeMessages } from '../server/db/message-batch';
import type { NewMessage, StoredMessage } from '../server/db/message-payload';
import type { Db } from '../server/db/open-database';
import { users, type UserRow } from '../server/db/schema';

/**
 * Stores one message (a batch of one: storeMessages in message-batch.ts has the whole story) and
 * returns it as both sides see it; a repeat of (sender, client_id) returns the first row, unchanged.
 * Throws when storeMessages refuses it.
 */
export async function insertMessage(db: Db, message: NewMessage): Promise<StoredMessage> {
  const [outcome] = await storeMessages(db, [message]);
  if (!outcome) throw new Error('no outcome for the message');
  if ('refused' in outcome) throw new Error(`message refused: ${outcome.refused}`);
  return outcome.stored;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}
