// A second process for the data folder lock tests (server/db/engine/data-dir.test.ts):
//   node --import tsx server/test/hold-data-dir.ts <database|lock> <dir> [start-at-ms]
// opens the PGlite database under <dir> (as DATA_DIR) or takes only the lock on <dir>, waiting
// until start-at-ms first when given (so racing processes start together), then prints one JSON
// line, {"held": true} or {"error": "<name>", "message": "…"}, and holds until stdin closes.
import { lockDataDir } from '../db/engine/data-dir-lock';
import { openDatabase } from '../db/engine/open-database';

const [mode, dir, startAt] = process.argv.slice(2);
if ((mode !== 'database' && mode !== 'lock') || !dir) throw new Error('usage: hold-data-dir.ts <database|lock> <dir> [start-at-ms]');

if (startAt) while (Date.now() < Number(startAt)); // busy wait: a timer would add its own jitter

try {
  const release =
    mode === 'database' ? (await openDatabase({ dataDir: dir })).close : (await lockDataDir(dir)).release;
  console.log(JSON.stringify({ held: true }));
  process.stdin.resume();
  process.stdin.once('end', () => void release().then(() => process.exit(0)));
} catch (error) {
  const { name, message } = error as Error;
  console.log(JSON.stringify({ error: name, message }));
  process.exit(0);
}
