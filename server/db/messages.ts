import { sql, type Placeholder } from 'drizzle-orm';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { sqlInt } from './engine/script-transaction';
import { messages } from './schema';
import { unreadTotalSql } from './unread';

/** Messages `userId` deleted for themselves are left out of everything they read. */
export const notHiddenFor = (userId: number | Placeholder) =>
  sql`not exists (select 1 from message_hidden h where h.user_id = ${userId} and h.message_id = ${messages.id})`;

const unreadTotal = (userId: string) => sql.raw(unreadTotalSql(userId));

export async function countUnread(db: Db, userId: number): Promise<number> {
  const [row] = await rows<{ value: number }>(db, sql`select ${unreadTotal(sqlInt(userId))} as value`);
  return row?.value ?? 0;
}

/**
 * What `init` reads, in one query: whether the account is still active, and its unread total
 * (unreadTotal, as countUnread). Null when there is no such account.
 */
export async function initialCounts(db: Db, userId: number): Promise<{ active: boolean; unread: number; showPresence: boolean } | null> {
  const [row] = await rows<{ active: boolean; unread: number; showPresence: boolean }>(db, sql`
    select u.is_active as active, ${unreadTotal('u.id')} as unread, u.show_presence as "showPresence"
    from users u where u.id = ${userId}`);
  return row ?? null;
}
