// The cluster test runs alone (`npm run test:cluster`): it starts a throwaway PostgreSQL and Redis
// and two server nodes, kills one, stops one gracefully and restarts Redis, so it stays out of the
// default projects.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'cluster',
    environment: 'node',
    include: ['cluster/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
