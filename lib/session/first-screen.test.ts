import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Module state (the screen is shown once per page): a fresh copy for each test.
const load = () => import('./first-screen');

describe('first screen', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  });
  afterEach(() => vi.useRealTimers());

  it('what waits for it goes on once it is shown, not before', async () => {
    const { afterFirstScreen, firstScreenShown } = await load();
    const waited = vi.fn();
    void afterFirstScreen().then(waited);
    await vi.advanceTimersByTimeAsync(500);
    expect(waited).not.toHaveBeenCalled();
    firstScreenShown();
    await vi.advanceTimersByTimeAsync(0);
    expect(waited).toHaveBeenCalledTimes(1);
    // Shown once for the page: later waits go on at once.
    const later = vi.fn();
    void afterFirstScreen().then(later);
    await vi.advanceTimersByTimeAsync(0);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('a screen that never shows holds nothing back longer than the cap', async () => {
    const { afterFirstScreen, FIRST_SCREEN_WAIT_MS } = await load();
    const waited = vi.fn();
    void afterFirstScreen().then(waited);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 1);
    expect(waited).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toHaveBeenCalledTimes(1);
  });

  it('afterNextPaint runs after the coming frame, in a task of its own, and can be cancelled', async () => {
    const { afterNextPaint } = await load();
    const ran = vi.fn();
    afterNextPaint(ran);
    expect(ran).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    expect(ran).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    afterNextPaint(cancelled)();
    await vi.advanceTimersByTimeAsync(50);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
