// Users with live sessions, written straight into the database: for the fault test and the
// benchmarks, which need many signed-in people and no Firebase in the loop. Never used by the app,
// so it lives with the harnesses.
import { sql } from 'drizzle-orm';
import { generateSessionToken, hashSessionToken } from '../server/db/session-token';
import { openDatabase, type Db, type DatabaseOptions } from '../server/db/engine/open-database';
import { sessions, users } from '../server/db/schema';

export interface SeedOptions {
  count: number;
  /** Names the batch: users are `<prefix>-<n>`. The same prefix again reuses those users. */
  prefix?: string;
}

export interface SeededUser {
  id: number;
  /** The raw session token, as authorize returns it; clients send `Bearer <token>`. */
  token: string;
  username: string;
}

// Rows per INSERT: well under Postgres' 65,535 bind parameters per statement.
const CHUNK = 1_000;

/**
 * Creates `count` active users and one new session each, in one transaction, and returns them in
 * order. Rows are what authorize writes (a users row keyed by a Firebase uid, a session storing
 * only the token's SHA-256); the uids are `seed:<prefix>:<n>`, which no Firebase account has.
 * Like a sign-in whose revocation check passed, seeding counts as the Firebase account check
 * (users.firebase_checked_at = now), so a server pointed at an emulator does not find the
 * accounts missing there and end their sessions. Seeding a prefix again returns the same users
 * with a fresh session each.
 */
export async function seedUsers(db: Db, { count, prefix = 'seed' }: SeedOptions): Promise<SeededUser[]> {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0, not ${count}`);
  if (!/^[\w-]{1,40}$/.test(prefix)) throw new RangeError(`prefix must be 1–40 of [A-Za-z0-9_-], not "${prefix}"`);
  const wanted = Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(String(count).length, '0');
    return { firebaseUid: `seed:${prefix}:${n}`, username: `${prefix}-${n}`, email: `${prefix}-${n}@seed.invalid` };
  });
  return db.transaction(async (tx) => {
    const seeded: SeededUser[] = [];
    for (let start = 0; start < wanted.length; start += CHUNK) {
      const chunk = wanted.slice(start, start + CHUNK);
      const rows = await tx
        .insert(users)
        .values(chunk.map((user) => ({ ...user, avatar: null, socialType: 'google', firebaseCheckedAt: sql`now()` })))
        // A repeat brings the user back as seeded (active, same name) rather than failing.
        .onConflictDoUpdate({
          target: users.firebaseUid,
          set: { username: sql`excluded.username`, email: sql`excluded.email`, isActive: true, firebaseCheckedAt: sql`now()`, updatedAt: sql`now()` },
        })
        .returning({ id: users.id, firebaseUid: users.firebaseUid });
      // RETURNING's order is not promised; match rows by uid.
      const idByUid = new Map(rows.map((row) => [row.firebaseUid, row.id]));
      const withTokens = chunk.map((user) => {
        const id = idByUid.get(user.firebaseUid);
        if (id === undefined) throw new Error(`seeding ${user.firebaseUid} returned no row`);
        return { id, token: generateSessionToken(), username: user.username };
      });
      await tx.insert(sessions).values(withTokens.map(({ id, token }) => ({ userId: id, tokenHash: hashSessionToken(token) })));
      seeded.push(...withTokens);
    }
    return seeded;
  });
}

/**
 * Opens the database (PGlite under `dataDir`, or `databaseUrl`), migrates it, seeds and closes it.
 * PGlite's directory admits one process at a time: run this before the server starts.
 */
export async function seedDatabase(options: DatabaseOptions & SeedOptions): Promise<SeededUser[]> {
  const database = await openDatabase(options);
  try {
    return await seedUsers(database.db, options);
  } finally {
    await database.close();
  }
}

