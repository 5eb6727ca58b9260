// The end-to-end stack's app server: a production build with the Auth emulator switched on
// (in its own .next-e2e folder), served by the bundled server on a throwaway database.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2eBuildEnv, e2eServerEnv } from './e2e-app-env.mjs';

// Both come from playwright.config.ts (e2e/support/env.ts), the one place they are set.
const PORT = process.env.E2E_PORT;
const EMULATOR_HOST = process.env.E2E_EMULATOR_HOST;
if (!PORT || !EMULATOR_HOST) throw new Error('Run through Playwright: E2E_PORT and E2E_EMULATOR_HOST are not set.');

const env = e2eBuildEnv(EMULATOR_HOST);
if (!process.env.E2E_SKIP_BUILD) {
  execFileSync('node_modules/.bin/next', ['build'], { stdio: 'inherit', env: { ...env, NODE_ENV: 'production', PARLEY_BUILD_SKIP_TYPECHECK: '1' } });
  execFileSync('node', ['scripts/build-server.mjs'], { stdio: 'inherit', env });
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
const server = spawn('node', ['--enable-source-maps', 'dist/server/main.js'], {
  stdio: 'inherit',
  env: e2eServerEnv({ emulatorHost: EMULATOR_HOST, port: PORT, dataDir }),
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
