import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    '.next-e2e/**',
    '.next-split/**',
    '.data/**',
    'dist/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
  ]),
  {
    // Data flows one way: the browser side never reaches into the server.
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
    // The session token is in localStorage, so injected markup must never become script:
    // text is always React text, and a new tab never gets a handle on this one (Next's config
    // turns jsx-no-target-blank off). docs/DECISIONS.md, "Security headers".
    files: ['app/**', 'components/**', 'lib/**'],
    rules: {
      'react/no-danger': 'error',
      'react/jsx-no-target-blank': ['error', { allowReferrer: false, enforceDynamicLinks: 'always', forms: true }],
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML', 'insertAdjacentHTML'].map((property) => ({
          property,
          message: 'Markup from strings can run script; build elements or use React text.',
        })),
      ],
    },
  },
  {
    // Playwright fixtures receive a `use` callback that is not React's hook.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
]);
