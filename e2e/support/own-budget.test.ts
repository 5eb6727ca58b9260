import { describe, expect, it, vi } from 'vitest';
import { onOwnBudget } from './own-budget';

function testInfo(timeout: number) {
  const info = { timeout, setTimeout: (ms: number) => void (info.timeout = ms) };
  return info;
}

describe('a preparation on a time limit of its own', () => {
  it('gives the test its whole limit for the preparation while it runs, and adds only the time it took', async () => {
    vi.useFakeTimers();
    try {
      const info = testInfo(30_000);
      const seen: number[] = [];
      const done = onOwnBudget(
        60_000,
        async () => {
          seen.push(info.timeout);
          await vi.advanceTimersByTimeAsync(25_000);
          return 'signed in';
        },
        info,
      );
      await expect(done).resolves.toBe('signed in');
      expect(seen).toEqual([90_000]);
      expect(info.timeout).toBe(55_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives back the time of a preparation that failed too, never more than its limit', async () => {
    vi.useFakeTimers();
    try {
      const info = testInfo(30_000);
      const failing = onOwnBudget(
        10_000,
        async () => {
          await vi.advanceTimersByTimeAsync(15_000);
          throw new Error('no sign-in');
        },
        info,
      );
      await expect(failing).rejects.toThrow('no sign-in');
      expect(info.timeout).toBe(40_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves a test with no limit without one', async () => {
    const info = testInfo(0);
    await onOwnBudget(60_000, async () => undefined, info);
    expect(info.timeout).toBe(0);
  });
});
