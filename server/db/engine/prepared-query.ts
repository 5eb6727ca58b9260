// Queries run on every request or read of a stream, prepared once per database: drizzle names them
// (`.prepare(name)`), so each connection parses and plans them once instead of on every call.
// PGlite plans an unnamed statement anew each time (0.3-1.4 ms, more for a join with subqueries:
// docs/DECISIONS.md, "Changes are group-committed like sends"), and does it on its one connection,
// where everyone else's work waits behind it. Values go in as placeholders (`sql.placeholder`).
import type { Db } from './open-database';

/** `build` run once per database (a test server's, the app's); the same prepared query after. */
export function preparedQuery<T>(build: (db: Db) => T): (db: Db) => T {
  const byDatabase = new WeakMap<Db, T>();
  return (db) => {
    let query = byDatabase.get(db);
    if (query === undefined) {
      query = build(db);
      byDatabase.set(db, query);
    }
    return query;
  };
}
