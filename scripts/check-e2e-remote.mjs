// The end-to-end suite pointed at a deployment it did not start, as QA runs it against staging
// (docs/TESTING.md): a second production server from the same .next-e2e build and dist/server
// bundle, on a free port with its own temporary database, is the "deployment"; Playwright runs
// with E2E_BASE_URL set (so it starts nothing), its people made by the setup project with
// firebase-admin custom tokens (E2E_AUTH=custom-token; the Auth emulator stands in for a real
// Firebase project and accepts them unsigned), and the @smoke subset (`--all`: the whole suite,
// the specs that need the local stack skipped with their reason). Afterwards the check asks
// Firebase and the server whether any test person is left: none may be.
//
// Part of `npm test`, after test:e2e, whose build it reuses (run `npm run test:e2e` first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTarget } from '../e2e/support/env.ts';
import { People, TEST_USER_PREFIX } from '../e2e/support/people/people.ts';
import { freePort, spawnOwned, waitForOk } from '../testing/processes.ts';
import { startAuthEmulator } from './auth-emulator.mjs';
import { e2eServerEnv } from './e2e-app-env.mjs';
import { TEST_EMULATOR_HOST, testEmulatorConfig } from './test-emulator.mjs';

const EMULATOR_HOST = TEST_EMULATOR_HOST;
const ALL = process.argv.includes('--all');
const PROJECT_ID = 'demo-parley';

for (const built of ['.next-e2e/BUILD_ID', 'dist/server/main.js']) {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run test:e2e\` first (this check reuses its build).`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-remote-'));
const emulator = await startAuthEmulator({ host: EMULATOR_HOST, config: testEmulatorConfig() });
let server;
try {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  server = spawnOwned(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    stdio: 'inherit',
    env: { ...e2eServerEnv({ emulatorHost: EMULATOR_HOST, port, dataDir }), HOST: '127.0.0.1' },
  });
  const exit = () => (server.child.exitCode === null ? null : `code ${server.child.exitCode}`);
  await waitForOk(`${baseURL}/api/ready`, { timeoutMs: 120_000, exited: exit });

  const env = {
    ...process.env,
    E2E_BASE_URL: baseURL,
    E2E_AUTH: 'custom-token',
    E2E_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    E2E_FIREBASE_PROJECT_ID: PROJECT_ID,
    E2E_FIREBASE_API_KEY: 'demo-api-key',
    // The smoke specs need two people per role; the whole suite the usual pool.
    ...(ALL ? {} : { E2E_PEOPLE: '2' }),
  };
  console.log(`Remote mode: ${ALL ? 'the whole suite' : 'the @smoke specs'} against ${baseURL} (custom tokens through the Auth emulator ${EMULATOR_HOST}).`);
  const code = await new Promise((resolve) => {
    const playwright = spawn('node_modules/.bin/playwright', ['test', ...(ALL ? [] : ['--grep', '@smoke'])], { stdio: 'inherit', env });
    playwright.once('exit', (status) => resolve(status ?? 1));
  });
  if (code !== 0) throw new Error(`The suite failed against ${baseURL} (exit code ${code}).`);
  await expectNoTestPeopleLeft(readTarget(env));
  console.log('Remote mode: passed, and no test person is left in Firebase or on the server.');
} finally {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (emulator) {
    emulator.kill('SIGTERM');
    await new Promise((resolve) => (emulator.exitCode === null ? emulator.once('exit', resolve) : resolve()));
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** Firebase has no user, and the server's search no active account, named like a test person. */
async function expectNoTestPeopleLeft(target) {
  const response = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:query`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ returnUserInfo: true }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`Listing the emulator's users failed: ${JSON.stringify(body)}`);
  const firebaseLeft = (body.userInfo ?? []).filter((user) => user.localId.startsWith(TEST_USER_PREFIX)).map((user) => user.email);

  // A fresh checker (an e2e person too, so cleaned up the same way) searches for the others.
  const people = new People(target);
  try {
    const checker = await people.claim('checker');
    const search = await fetch(`${target.baseURL}/api/users/search?q=${TEST_USER_PREFIX}&limit=50`, {
      headers: { authorization: checker.token },
    });
    if (!search.ok) throw new Error(`Searching ${target.baseURL} failed (${search.status}).`);
    const { results } = await search.json();
    const serverLeft = results.map((user) => user.username);
    const cleanUp = await people.cleanUp();
    if (cleanUp.failures.length > 0) throw new Error(`Cleaning up the checker failed: ${cleanUp.failures.join('; ')}`);
    if (firebaseLeft.length > 0 || serverLeft.length > 0) {
      throw new Error(`Test people left after the run: Firebase ${JSON.stringify(firebaseLeft)}, server ${JSON.stringify(serverLeft)}`);
    }
  } finally {
    await people.close();
  }
}
