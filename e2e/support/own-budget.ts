import { test, type TestInfo } from '@playwright/test';

/**
 * How long signing a person in (a page load and the guard's account check) may take before it is
 * a failure. Generous, for a loaded machine; the app's own speed is the benchmark's to judge.
 */
export const SIGN_IN_LIMIT_MS = 60_000;

/**
 * Runs a test's preparation (signing someone in) on a time limit of its own: the time it takes is
 * added to the test's limit, so a slow machine's sign-ins never eat the time the test's own steps
 * were given, and a sign-in slower than `limitMs` still fails (its steps are given `limitMs`).
 */
export async function onOwnBudget<T>(
  limitMs: number,
  prepare: () => Promise<T>,
  info: Pick<TestInfo, 'timeout' | 'setTimeout'> = test.info(),
): Promise<T> {
  const started = Date.now();
  // 0 means no limit at all: nothing to extend.
  if (info.timeout > 0) info.setTimeout(info.timeout + limitMs);
  try {
    return await prepare();
  } finally {
    if (info.timeout > 0) info.setTimeout(info.timeout - limitMs + Math.min(limitMs, Date.now() - started));
  }
}
