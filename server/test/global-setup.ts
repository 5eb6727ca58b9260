import type { ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../scripts/auth-emulator.mjs';
import { EMULATOR_HOST, clearEmulatorAccounts, emulatorConfig } from './emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    firebaseAuthEmulatorHost: string;
  }
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** Reuses an emulator already answering on its port, otherwise starts one and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // null: one was already running; it is not ours to stop.
  const child = await startAuthEmulator({ host: EMULATOR_HOST, config: emulatorConfig(), timeoutMs: START_TIMEOUT_MS });
  const teardown = async () => {
    if (child) await stopEmulator(child);
  };
  try {
    await clearEmulatorAccounts();
  } catch (error) {
    await teardown();
    throw error;
  }
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
