import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { testEmulatorConfig } from './scripts/test-emulator.mjs';
import { E2E_BASE_URL, E2E_EMULATOR_HOST, E2E_PORT } from './e2e/support/env';

const CI = Boolean(process.env.CI);
// Debian's Chromium when present; Playwright's own browser otherwise (never downloaded by CI).
const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: `node_modules/.bin/firebase emulators:start --only auth --project demo-parley --config ${testEmulatorConfig()}`,
      url: `http://${E2E_EMULATOR_HOST}/`,
      reuseExistingServer: !CI,
      timeout: 120_000,
      stdout: 'ignore',
    },
    {
      // A production build with the emulator switched on, served by our own server.
      command: 'node scripts/e2e-server.mjs',
      env: { E2E_PORT: String(E2E_PORT), E2E_EMULATOR_HOST },
      url: `${E2E_BASE_URL}/api/health`,
      reuseExistingServer: !CI,
      timeout: 600_000,
      stdout: 'pipe',
    },
  ],
});
