import { spawn, type ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { EMULATOR_HOST, clearEmulatorAccounts, emulatorAnswers } from './emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    firebaseAuthEmulatorHost: string;
  }
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** Reuses an emulator already answering on 9199, otherwise starts one and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let child: ChildProcess | undefined;
  if (!(await emulatorAnswers())) child = await startEmulator();
  await clearEmulatorAccounts();
  project.provide('firebaseAuthEmulatorHost', EMULATOR_HOST);
  process.env.FIREBASE_AUTH_EMULATOR_HOST = EMULATOR_HOST;
  return async () => {
    if (child) await stopEmulator(child);
  };
}

async function startEmulator(): Promise<ChildProcess> {
  const output: string[] = [];
  // detached: its own process group, so teardown can signal npx and the firebase CLI under it together.
  const child = spawn(
    'npx',
    ['firebase', 'emulators:start', '--only', 'auth', '--project', 'demo-parley', '--config', 'firebase.test.json'],
    { cwd: process.cwd(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await emulatorAnswers()) return child;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stopEmulator(child);
  throw new Error(`Firebase Auth emulator did not start on ${EMULATOR_HOST}:\n${output.join('')}`);
}

async function stopEmulator(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pgid = child.pid;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pgid, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
