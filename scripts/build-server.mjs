// Bundles server/ (and the shared lib/contract) into one ESM file for `npm start`, and the
// migration command (migrate.js, `npm run db:migrate`), the moderation command (moderation.js,
// `npm run moderation`) and PGlite's worker thread (pglite-worker.mjs) next to it, so a production install with only dependencies can run them;
// packages stay external and are loaded from node_modules.
// `--outfile <path>` builds elsewhere (the fault test builds into a temporary directory, so it
// never replaces the dist/server someone else is running); the default is what `npm start` runs.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { outfile: { type: 'string', default: 'dist/server/main.js' } } });

const { dir, ext } = path.parse(values.outfile);
const entries = {
  'server/main.ts': values.outfile,
  'server/migrate.ts': path.join(dir, `migrate${ext}`),
  'server/moderation/main.ts': path.join(dir, `moderation${ext}`),
  // Loaded by file name from beside the bundle that starts it (server/db/engine/pglite-host.ts).
  'server/db/engine/pglite-worker.mjs': path.join(dir, 'pglite-worker.mjs'),
};

for (const [entry, outfile] of Object.entries(entries)) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'info',
  });
}
