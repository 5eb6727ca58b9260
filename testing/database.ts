// Rows written or read straight in the database, for the server tests and the benchmarks' seeding:
// the app itself stores messages and changes only through its writers (server/db/delivery/message-writer.ts,
// server/db/delivery/change-batch.ts).
import { and, eq } from 'drizzle-orm';
import { applyChanges } from '../server/db/delivery/change-batch';
import { storeMessages } from '../server/db/delivery/message-batch';
import type { NewMessage, StoredMessage } from '../server/db/delivery/message-payload';
import type { Db } from '../server/db/engine/open-database';
import { conversationsV2, users, type UserRow } from '../server/db/schema';

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

/**
 * Reads `userId`'s direct conversation with `peerId` (a change batch of one: applyChanges in
 * change-batch.ts), and returns the reader's unread total afterwards. Throws when refused.
 */
export async function readConversation(db: Db, userId: number, peerId: number): Promise<{ count: number }> {
  const conversationId = await directConversationId(db, userId, peerId);
  const [outcome] = await applyChanges(db, [{ kind: 'read', actorId: userId, conversationId, upTo: null }]);
  if (!outcome) throw new Error('no outcome for the read');
  if (!('pushes' in outcome)) throw new Error(`read not written: ${JSON.stringify(outcome)}`);
  return { count: outcome.unreadTotals.get(userId) ?? 0 };
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** The direct conversation of two people (they have exchanged a message), by its pair; throws when there is none. */
export async function directConversationId(db: Db, a: number, b: number): Promise<number> {
  const [found] = await db
    .select({ id: conversationsV2.id })
    .from(conversationsV2)
    .where(and(eq(conversationsV2.kind, 'direct'), eq(conversationsV2.directLow, Math.min(a, b)), eq(conversationsV2.directHigh, Math.max(a, b))));
  if (!found) throw new Error(`no conversation of ${a} and ${b}`);
  return found.id;
}
