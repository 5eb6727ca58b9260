// Types for scripts/auth-emulator.mjs, so TypeScript callers (server/test/global-setup.ts) can import it.
import type { ChildProcess } from 'node:child_process';

export declare const DEMO_PROJECT_ID: string;

/** Whether an emulator answers on host:port. */
export declare function isEmulatorUp(host: string): Promise<boolean>;

/**
 * Starts the Auth emulator and waits until it answers; null when one was already running on `host`
 * (or, with `reuse: false`, an error).
 */
export declare function startAuthEmulator(options: {
  host: string;
  config: string;
  extraArgs?: string[];
  timeoutMs?: number;
  /** Use an emulator already answering on `host` (default); false refuses it. */
  reuse?: boolean;
}): Promise<ChildProcess | null>;
