// Entry of `npm run moderation` (built to dist/server/moderation.js); the work is in moderation-cli.ts.
import { runModeration } from './moderation-cli';

runModeration(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('moderation failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
