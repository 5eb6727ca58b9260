import type { SQL } from 'drizzle-orm';
import type { Db } from './open-database';

/**
 * The rows of a raw `sql` query, as the driver returns them (snake_case names; int8 as a string on
 * node-postgres; timestamps as strings): for hot paths where the query builder's cost shows.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
