// Starts the Firebase Auth emulator (demo project, offline) and waits until it answers.
// Shared by `npm run dev` and the end-to-end suite; each caller picks its own config/ports.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export const DEMO_PROJECT_ID = 'demo-parley';

export async function isEmulatorUp(host) {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * `reuse: false` refuses an emulator already answering on `host` instead of using it: under CI the
 * run must own what it tests against (another run's emulator stopped halfway through one of ours,
 * and 182 tests failed with ECONNREFUSED).
 * @param {{ host: string, config: string, extraArgs?: string[], timeoutMs?: number, reuse?: boolean }} options
 * @returns {Promise<import('node:child_process').ChildProcess | null>} null when one was already running
 */
export async function startAuthEmulator({ host, config, extraArgs = [], timeoutMs = 90_000, reuse = true }) {
  if (await isEmulatorUp(host)) {
    if (reuse) return null;
    throw new Error(`An Auth emulator is already answering on ${host}, and this run must start its own: stop the other run (or its emulator) first.`);
  }
  const child = spawn(
    'node_modules/.bin/firebase',
    ['emulators:start', '--only', 'auth', '--project', DEMO_PROJECT_ID, '--config', config, ...extraArgs],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' } },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isEmulatorUp(host)) return child;
    const code = await Promise.race([exited, sleep(500).then(() => undefined)]);
    if (code !== undefined) throw new Error(`The Auth emulator exited with code ${code} before it was ready.`);
  }
  child.kill('SIGTERM');
  throw new Error(`The Auth emulator did not answer on ${host} within ${timeoutMs / 1000} s.`);
}
