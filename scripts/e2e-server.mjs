// The end-to-end stack's app server: a production build with the Auth emulator switched on
// (in its own .next-e2e folder), served by the bundled server on a throwaway database.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Both come from playwright.config.ts (e2e/support/env.ts), the one place they are set.
const PORT = process.env.E2E_PORT;
const EMULATOR_HOST = process.env.E2E_EMULATOR_HOST;
if (!PORT || !EMULATOR_HOST) throw new Error('Run through Playwright: E2E_PORT and E2E_EMULATOR_HOST are not set.');

const env = {
  ...process.env,
  NEXT_DIST_DIR: '.next-e2e',
  NEXT_PUBLIC_FIREBASE_API_KEY: 'demo-api-key',
  NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: 'localhost',
  NEXT_PUBLIC_FIREBASE_PROJECT_ID: 'demo-parley',
  NEXT_PUBLIC_FIREBASE_APP_ID: 'demo-app',
  NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
  NEXT_TELEMETRY_DISABLED: '1',
};

if (!process.env.E2E_SKIP_BUILD) {
  execFileSync('node_modules/.bin/next', ['build'], { stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } });
  execFileSync('node', ['scripts/build-server.mjs'], { stdio: 'inherit', env });
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
const server = spawn('node', ['--enable-source-maps', 'dist/server/main.js'], {
  stdio: 'inherit',
  env: {
    ...env,
    NODE_ENV: 'production',
    PORT,
    DATA_DIR: dataDir,
    FIREBASE_PROJECT_ID: 'demo-parley',
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // No load shedding: on a loaded machine (a build, Chromium and the suite on two cores) the
    // event loop can lag past its threshold, and a test would then fail for the machine's load.
    SHED_EVENT_LOOP_DELAY_MS: '0',
  },
});

function stop(signal) {
  if (server.exitCode === null) server.kill(signal);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.once('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
