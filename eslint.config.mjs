import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    '.next-e2e/**',
    '.data/**',
    'dist/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
  ]),
  {
    // Data flows one way (ARCHITECTURE.md): the browser side never reaches into the server.
    files: ['app/**', 'components/**', 'lib/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'lib/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/server/*', '**/server/*'], message: 'server/ is Node-only.' },
            {
              group: ['@/lib/contract/schemas', '**/contract/schemas'],
              message: 'The zod schemas are for the server; import the inferred types from @/lib/contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures receive a `use` callback that is not React's hook.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
]);
