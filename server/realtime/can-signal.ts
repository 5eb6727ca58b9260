import { sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { rows } from '../db/raw-rows';
import { canMessage } from '../db/safety-rules';

/**
 * May `fromId` send `toId` an ephemeral signal (typing)? Exactly when a message from one to the
 * other would be accepted now (safety-rules.ts's canMessage: `toId` is active, neither blocked the
 * other, and toId's "who can message me" lets fromId in). A signal refused here is dropped without
 * a word, so the sender cannot tell a refusal from a delivery.
 */
export async function canSignal(db: Db, fromId: number, toId: number): Promise<boolean> {
  if (fromId === toId) return false;
  const [row] = await rows<{ allowed: boolean }>(
    db,
    sql`select ${canMessage(fromId, sql.raw('ru'), sql`ru.id`)} as allowed from users ru where ru.id = ${toId}`,
  );
  return row?.allowed === true;
}
