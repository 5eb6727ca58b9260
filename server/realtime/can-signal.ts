import type { Db } from '../db/open-database';
import { findActiveUser } from '../db/users';

/**
 * May `fromId` send `toId` an ephemeral signal (typing)? Today: `toId` exists and is active. This
 * is the one place to add who may reach whom (blocks, who may message me): a signal refused here
 * is dropped without a word, so the sender cannot tell a refusal from a delivery.
 */
export async function canSignal(db: Db, fromId: number, toId: number): Promise<boolean> {
  if (fromId === toId) return false;
  return (await findActiveUser(db, toId)) !== null;
}
