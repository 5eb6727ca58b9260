// Waiting on conditions with deadlines, never on fixed sleeps: a busy machine makes things slower,
// not wrong, and a failure names what did not happen instead of hanging until the test times out.

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The promise's value, or a clear failure after `ms` instead of a hang until the test times out. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms / 1000} s: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it holds; fails after `timeoutMs` saying `what` (and `detail()` if given). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; what: string; everyMs?: number; detail?: () => string },
): Promise<void> {
  const until = Date.now() + options.timeoutMs;
  while (!(await condition())) {
    if (Date.now() >= until) {
      const detail = options.detail ? `\n${options.detail()}` : '';
      throw new Error(`not within ${options.timeoutMs / 1000} s: ${options.what}${detail}`);
    }
    await delay(options.everyMs ?? 25);
  }
}
