// Bundles server/ (and the shared lib/contract) into one ESM file for `npm start`;
// packages stay external and are loaded from node_modules at run time.
// `--outfile <path>` builds elsewhere (the fault test builds into a temporary directory, so it
// never replaces the dist/server someone else is running); the default is what `npm start` runs.
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { outfile: { type: 'string', default: 'dist/server/main.js' } } });

await build({
  entryPoints: ['server/main.ts'],
  outfile: values.outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});
