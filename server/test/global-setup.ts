import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../scripts/auth-emulator.mjs';
import { openDatabase } from '../db/engine/open-database';
import { EMULATOR_HOST, clearEmulatorAccounts, emulatorConfig } from './emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    firebaseAuthEmulatorHost: string;
    /** A PGlite folder with every migration applied, closed: test servers start from a copy. */
    pgliteTemplate: string;
  }
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Reuses an emulator already answering on its port (outside CI: a developer's `npm run dev`),
 * otherwise starts one and stops it afterwards;
 * meanwhile makes the database every test server copies (a new PGlite runs initdb and every
 * migration: 5 s on an idle machine, 10-20 s on a busy one, once per test file before this).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templateRoot = await mkdtemp(path.join(tmpdir(), 'parley-template-'));
  // Opening a database narrows the process's umask (security/private-files.ts): the test files' processes
  // are forked from this one and would inherit it, and a test that makes files for another user
  // to read (scripts/test-setup.test.ts) could not.
  const umask = process.umask();
  const template = path.join(templateRoot, 'db');
  // null: one was already running; it is not ours to stop.
  const [emulator, made] = await Promise.allSettled([
    startAuthEmulator({ host: EMULATOR_HOST, config: emulatorConfig(), timeoutMs: START_TIMEOUT_MS, reuse: !process.env.CI }),
    openDatabase({ pgliteDir: template }).then((database) => database.close()),
  ]);
  process.umask(umask);
  const child = emulator.status === 'fulfilled' ? emulator.value : null;
  const teardown = async () => {
    if (child) await stopEmulator(child);
    await rm(templateRoot, { recursive: true, force: true });
  };
  try {
    if (emulator.status === 'rejected') throw emulator.reason;
    if (made.status === 'rejected') throw made.reason;
    // Only an emulator this run started: one it reuses may be serving another run's tests, whose
    // tokens would stop verifying mid-test (a developer's run beside a CI run on one machine).
    if (child) await clearEmulatorAccounts();
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('pgliteTemplate', template);
  project.provide('firebaseAuthEmulatorHost', EMULATOR_HOST);
  process.env.FIREBASE_AUTH_EMULATOR_HOST = EMULATOR_HOST;
  return teardown;
}

/** SIGTERM to the firebase CLI by its PID (it shuts its emulators down cleanly), SIGKILL if it hangs. */
async function stopEmulator(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
