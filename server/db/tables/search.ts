// What search compares, spelled once for the indexes (here, read by drizzle-kit) and the queries
// that must match them (server/db/people.ts, server/db/message-search.ts). The three functions
// are SQL functions of the database, made by migration 0016 from Postgres' unaccent dictionary and
// its `simple` text search configuration (docs/DECISIONS.md, "Search: accents, middles of names,
// links").
import { sql, type SQLWrapper } from 'drizzle-orm';

/**
 * A text as search compares it: accents and ligatures folded by unaccent ("Núñez" → "nunez",
 * "Œuvre" → "oeuvre"), lowercased, and dots, @, slashes and hyphens made spaces, or Postgres'
 * parser would keep "www.wikipedia.org", "a@b.c" or "john.smith" whole as one host or email word.
 */
export const searchText = (value: SQLWrapper) => sql`parley_search_text(${value})`;

/** The words of searchText(value): lowercase, no stemming or stop words, any script. */
export const searchVector = (value: SQLWrapper) => sql`parley_search_vector(${value})`;

/** Every word of searchText(value), each as the start of a word (`'nunez':* & 'b':*`); no operator of the caller's. */
export const searchQuery = (value: SQLWrapper) => sql`parley_search_query(${value})`;
