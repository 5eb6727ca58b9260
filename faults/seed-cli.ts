// Seeds a data directory before the server starts (PGlite admits one process at a time) and
// prints the users as JSON: `node --import tsx faults/seed-cli.ts --data-dir D --count N [--prefix P]`.
import { parseArgs } from 'node:util';
import { seedDatabase } from '../testing/seed';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    count: { type: 'string' },
    prefix: { type: 'string', default: 'seed' },
  },
});
const dataDir = values['data-dir'];
const count = Number(values.count);
if (!dataDir || !Number.isInteger(count)) {
  console.error('usage: seed-cli --data-dir <dir> --count <n> [--prefix <p>]');
  process.exit(2);
}
const users = await seedDatabase({ dataDir, count, prefix: values.prefix });
process.stdout.write(`${JSON.stringify(users)}\n`);
