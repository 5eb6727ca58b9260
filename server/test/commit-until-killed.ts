// A process that commits until it is killed (server/db/engine/pglite-host.test.ts):
//   node --import tsx server/test/commit-until-killed.ts <data-dir>
// opens the PGlite database under <data-dir> (as DATA_DIR: the worker thread, node-postgres),
// then commits rows 1, 2, 3… to a table of its own, one transaction each, and prints each number
// once its COMMIT is acknowledged. Whatever it printed must be there after a kill -9.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/engine/open-database';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: commit-until-killed.ts <data-dir>');

const { db } = await openDatabase({ dataDir: dir });
await db.execute(sql`create table if not exists durability_probe (n int primary key)`);
for (let n = 1; ; n++) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into durability_probe (n) values (${n})`);
  });
  // Synchronous on a pipe (Linux): the parent reads n only once this line has left the process.
  process.stdout.write(`${n}\n`);
}
