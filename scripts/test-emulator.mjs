// Where the test suites' Auth emulator listens (server tests, end-to-end suite, split check).
// TEST_EMULATOR_PORT moves it (and its hub and logging ports beside it), so two checkouts can run
// their suites side by side: the server tests clear the emulator's accounts when they start,
// which would sign out the other checkout's tests if they shared one.
import { writeFileSync } from 'node:fs';

const DEFAULT_PORT = 9199;
const DEFAULT_CONFIG = 'firebase.test.json';

export const TEST_EMULATOR_PORT = Number(process.env.TEST_EMULATOR_PORT || DEFAULT_PORT);
export const TEST_EMULATOR_HOST = `127.0.0.1:${TEST_EMULATOR_PORT}`;

/**
 * The firebase CLI config for the test emulator: firebase.test.json for the default port, else a
 * generated copy with the ports moved (git-ignored, beside it: the CLI reads the project from there).
 */
export function testEmulatorConfig() {
  if (TEST_EMULATOR_PORT === DEFAULT_PORT) return DEFAULT_CONFIG;
  const file = `.firebase.test-${TEST_EMULATOR_PORT}.json`;
  const emulators = {
    auth: { host: '127.0.0.1', port: TEST_EMULATOR_PORT },
    hub: { host: '127.0.0.1', port: TEST_EMULATOR_PORT + 1 },
    logging: { host: '127.0.0.1', port: TEST_EMULATOR_PORT + 2 },
    ui: { enabled: false },
    singleProjectMode: true,
  };
  writeFileSync(file, `${JSON.stringify({ emulators }, null, 2)}\n`);
  return file;
}
