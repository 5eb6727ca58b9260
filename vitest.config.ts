import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '@': fileURLToPath(new URL('.', import.meta.url)) };

export default defineConfig({
  test: {
    // Vitest's default is cores - 1, one worker on a 2-core machine such as CI's; most files
    // wait on a server, the Auth emulator or a database as much as they compute, so two side by
    // side use both cores (docs/DECISIONS.md, "Drafts and the test run's length").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['lib/**/*.test.ts', 'components/**/*.test.{ts,tsx}'],
          setupFiles: ['testing/client/vitest-setup.ts'],
          restoreMocks: true,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          // The e2e suite's own machinery (signed-in people) needs the same server and emulator.
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/support/**/*.test.ts', 'bench/**/*.test.ts', 'testing/**/*.test.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
