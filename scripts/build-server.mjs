// Bundles server/ (and the shared lib/contract) into one ESM file for `npm start`;
// packages stay external and are loaded from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});
