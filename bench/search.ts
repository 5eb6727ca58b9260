// Search: latency of GET /api/messages/search's query (server/db/message-search.ts) over a database
// seeded with SQL generate_series (not through the API: a million sends would take hours), then of
// people search's (bench/people-search.ts) over the same users, measured in this process against
// the database directly, so the figures are the queries' (no HTTP, no auth). Users write to a few
// regular partners; texts mix common words (in a message out of ten or more), rare ones, and a word
// unique to one message, so each kind of query is timed.
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { searchMessages } from '../server/db/message-search';
import { openDatabase } from '../server/db/engine/open-database';
import { insertMessagesInBulk } from '../testing/bulk-messages';
import { seedUsers } from '../testing/seed';
import { nameSearchUsers, timePeopleSearch, type QueryFigures } from './people-search';
import { percentiles, rounded, type Percentiles } from './stats';

export interface SearchResult {
  messages: number;
  users: number;
  seedMs: number;
  queries: QueryFigures;
  /** People search over the same users (absent from results written before it was measured). */
  people?: QueryFigures;
}

const COMMON = ['meeting', 'tomorrow', 'dinner', 'photo', 'merci', 'gracias', 'today', 'ready'];
const RARE = ['kayak', 'lighthouse', 'harbour', 'zeppelin', 'quokka', 'tamarind', 'origami', 'saxophone'];

/** Messages per user pair: each user writes to the next few ids, so every user has several conversations. */
const PARTNERS = 5;

export async function runSearch(options: { dir: string; messages: number; users: number; queries: number; log: (line: string) => void }): Promise<SearchResult> {
  const { log } = options;
  const database = await openDatabase({ dataDir: path.join(options.dir, 'data-search'), databaseUrl: process.env.DATABASE_URL || undefined });
  try {
    const { db } = database;
    const users = await seedUsers(db, { count: options.users, prefix: 'search' });
    const ids = users.map((user) => user.id);
    const first = Math.min(...ids);
    const started = performance.now();
    // Row i: sender first + i % users, recipient a partner after it (wrapping), a text from the
    // vocabularies; written a batch at a time as the send path leaves them (testing/bulk-messages.ts).
    const common = `(array[${COMMON.map((word) => `'${word}'`).join(',')}])`;
    const rare = `(array[${RARE.map((word) => `'${word}'`).join(',')}])`;
    const batch = 250_000;
    for (let from = 1; from <= options.messages; from += batch) {
      const to = Math.min(options.messages, from + batch - 1);
      await db.transaction((tx) =>
        insertMessagesInBulk(
          tx,
          sql.raw(`
            select i as ord, ${first} + (i % ${options.users}) as sender_id,
              ${first} + ((i % ${options.users}) + 1 + (i / ${options.users}) % ${PARTNERS}) % ${options.users} as recipient_id,
              md5(i::text) as client_id, ${common}[1 + i % 8] || ' ' || ${common}[1 + (i / 7) % 8] || ' see you at ' || (i % 24) || ' '
                || case when i % 97 = 0 then ${rare}[1 + (i / 97) % 8] || ' ' else '' end || 'word' || i as text,
              now() - make_interval(secs => ${options.messages} - i) as created_at, now() as read_at
            from generate_series(${from}, ${to}) as i`),
          ['client_id', 'text', 'created_at', 'read_at'],
        ),
      );
    }
    await db.execute(sql`analyze messages`);
    const seedMs = Math.round(performance.now() - started);
    log(`  seeded ${options.messages} messages between ${options.users} users in ${seedMs} ms`);

    const kinds: Record<string, (n: number) => string> = {
      common: (n) => COMMON[n % COMMON.length]!,
      'common prefix': (n) => COMMON[n % COMMON.length]!.slice(0, 3),
      rare: (n) => RARE[n % RARE.length]!,
      'two words': (n) => `${COMMON[n % COMMON.length]} ${COMMON[(n + 3) % COMMON.length]}`,
      unique: (n) => `word${1 + ((n * 7919) % options.messages)}`,
    };
    const queries: SearchResult['queries'] = {};
    for (const [kind, query] of Object.entries(kinds)) {
      const samples: number[] = [];
      let found = 0;
      for (let n = 0; n < options.queries; n++) {
        const userId = ids[(n * 31) % ids.length]!;
        const t0 = performance.now();
        const page = await searchMessages(db, userId, query(n), null, 20);
        samples.push(performance.now() - t0);
        found += page?.results.length ?? 0;
      }
      const p: Percentiles = percentiles(samples);
      queries[kind] = { percentiles: rounded(p), meanResults: Math.round((found / options.queries) * 10) / 10 };
      log(`  ${kind.padEnd(14)} p50 ${p.p50.toFixed(2)} ms  p99 ${p.p99.toFixed(2)} ms  (${queries[kind]!.meanResults} results a page on average)`);
    }
    const emails = await nameSearchUsers(db, ids);
    const people = await timePeopleSearch(db, ids, emails, options.queries, log);
    return { messages: options.messages, users: options.users, seedMs, queries, people };
  } finally {
    await database.close();
  }
}
