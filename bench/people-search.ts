// People search: latency of GET /api/users/search's query (server/db/people.ts), over the search
// section's seeded users renamed to names from a small vocabulary (so a surname is shared by one
// user in 25, as common surnames are), measured in this process against the database directly.
// Each kind of query a person types is timed: the start of a word, a whole name, the middle of a
// word, a name typed without its accents, one letter, and a whole email.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/engine/open-database';
import { searchUsers } from '../server/db/people';
import { rows } from '../server/db/engine/raw-rows';
import { percentiles, rounded, type Percentiles } from './stats';

export type QueryFigures = Record<string, { percentiles: Record<string, number | string>; meanResults: number }>;

const FIRST = ['Ada', 'Bruno', 'Chioma', 'Dmitri', 'Élodie', 'Farah', 'Grace', 'Hiroshi', 'Inés', 'Jonas', 'Kwame', 'Lucía', 'Mateus', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Søren', 'Thandiwe'];
/** Each surname as written, and as someone types it without accents (the same when it has none). */
const LAST: [string, string][] = [
  ['Okafor', 'okafor'], ['Núñez', 'nunez'], ['Müller', 'muller'], ['Østergaard', 'ostergaard'], ['Dupont', 'dupont'],
  ['García', 'garcia'], ['Nakamura', 'nakamura'], ['Kowalski', 'kowalski'], ['Lefèvre', 'lefevre'], ['Mensah', 'mensah'],
  ['Petrović', 'petrovic'], ['Silva', 'silva'], ['Çelik', 'celik'], ['Andersson', 'andersson'], ['Hopper', 'hopper'],
  ['Ibáñez', 'ibanez'], ['Rossi', 'rossi'], ['Smith', 'smith'], ['Wójcik', 'wojcik'], ['Haddad', 'haddad'],
  ['Byrne', 'byrne'], ['Fernández', 'fernandez'], ['Novák', 'novak'], ['Zhang', 'zhang'], ['Lindqvist', 'lindqvist'],
];

/** Names the users `ids` (seeded in id order) after FIRST and LAST, as `firstName lastName`; returns their emails. */
export async function nameSearchUsers(db: Db, ids: readonly number[]): Promise<string[]> {
  const first = `array[${FIRST.map((name) => `'${name}'`).join(',')}]`;
  const last = `array[${LAST.map(([name]) => `'${name}'`).join(',')}]`;
  const from = Math.min(...ids);
  await db.execute(
    sql.raw(`update users set username = (${first})[1 + (id - ${from}) % ${FIRST.length}] || ' ' || (${last})[1 + ((id - ${from}) / ${FIRST.length}) % ${LAST.length}]
      where id between ${from} and ${Math.max(...ids)}`),
  );
  await db.execute(sql`analyze users`);
  const found = await rows<{ email: string }>(db, sql.raw(`select email from users where id between ${from} and ${Math.max(...ids)} and email is not null order by id`));
  return found.map((row) => row.email);
}

export async function timePeopleSearch(db: Db, ids: readonly number[], emails: readonly string[], queries: number, log: (line: string) => void): Promise<QueryFigures> {
  const surname = (n: number) => LAST[n % LAST.length]!;
  const kinds: Record<string, (n: number) => string> = {
    'word start': (n) => surname(n)[1].slice(0, 3),
    'whole name': (n) => `${FIRST[n % FIRST.length]} ${surname(n * 7)[0]}`,
    'middle of word': (n) => surname(n)[1].slice(1),
    'no accents': (n) => surname(n)[1],
    'one letter': (n) => FIRST[n % FIRST.length]!.slice(0, 1),
    'whole email': (n) => emails[(n * 7919) % emails.length]!,
  };
  const figures: QueryFigures = {};
  for (const [kind, query] of Object.entries(kinds)) {
    const samples: number[] = [];
    let found = 0;
    for (let n = 0; n < queries; n++) {
      const viewerId = ids[(n * 31) % ids.length]!;
      const t0 = performance.now();
      const results = await searchUsers(db, viewerId, query(n), 20);
      samples.push(performance.now() - t0);
      found += results.length;
    }
    const p: Percentiles = percentiles(samples);
    figures[kind] = { percentiles: rounded(p), meanResults: Math.round((found / queries) * 10) / 10 };
    log(`  people, ${kind.padEnd(14)} p50 ${p.p50.toFixed(2)} ms  p99 ${p.p99.toFixed(2)} ms  (${figures[kind]!.meanResults} results on average)`);
  }
  return figures;
}
