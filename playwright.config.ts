import { defineConfig, devices } from '@playwright/test';
import { e2eChromium, fullChromium } from './scripts/test-browser.mjs';
import { testEmulatorConfig } from './scripts/test-emulator.mjs';
import { E2E_EMULATOR_HOST, E2E_PORT, target } from './e2e/support/env';

const CI = Boolean(process.env.CI);
const desktop = devices['Desktop Chrome'];
// Debian's headless Chromium when present, else its full one, else Playwright's own (never
// downloaded by CI): scripts/test-browser.mjs says why the headless one first.
const headed = ['--headed', '--debug', '--ui'].some((flag) => process.argv.includes(flag)) || Boolean(process.env.PWDEBUG);
const executablePath = e2eChromium({ headed });
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// The headless shell has no notifications (permission stays "denied", nothing is shown): the
// notification and Web Push specs run in the full browser.
const FULL_BROWSER_SPECS = '**/notifications.spec.ts';
const full = fullChromium();

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: CI,
  // A test that fails and then passes on a retry is reported as flaky (the list's summary and
  // e2e/support/summary-reporter.ts, with the failed attempt's trace) and still fails CI.
  retries: CI ? 2 : 0,
  failOnFlakyTests: CI,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never' }], ['./e2e/support/summary-reporter.ts']],
  use: {
    baseURL: target.baseURL,
    // A trace when a test is retried (CI retries; run with `--trace retain-on-failure` to keep one
    // locally), without the screencast: recording a trace on every run, its frames a JPEG each
    // paint on every page, was more than half of all the browsers' CPU and the suite on two cores
    // ran twice as slow (docs/DECISIONS.md, "A fresh machine's end-to-end run").
    trace: { mode: 'on-first-retry', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath, args: ARGS },
  },
  projects: [
    // Signs in the people the specs claim; its teardown removes every person the run made.
    { name: 'setup', testMatch: 'people.setup.ts', teardown: 'cleanup', use: { ...desktop } },
    { name: 'cleanup', testMatch: 'people.teardown.ts' },
    { name: 'chromium', testMatch: '**/*.spec.ts', testIgnore: FULL_BROWSER_SPECS, dependencies: ['setup'], use: { ...desktop } },
    {
      name: 'chromium-full',
      testMatch: FULL_BROWSER_SPECS,
      dependencies: ['setup'],
      use: { ...desktop, ...(full ? { launchOptions: { executablePath: full, args: ARGS } } : { channel: 'chromium' }) },
    },
  ],
  // E2E_BASE_URL names a deployment to test: nothing is started here.
  webServer: target.remote ? undefined : [
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
      url: `${target.baseURL}/api/health`,
      reuseExistingServer: !CI,
      timeout: 600_000,
      stdout: 'pipe',
    },
  ],
});
