import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationStateRead, useNotificationStore } from './notification-store';

describe('notificationStateRead', () => {
  afterEach(() => {
    vi.useRealTimers();
    useNotificationStore.getState().reset();
  });

  it('resolves at once when the state was read, else as soon as it is', async () => {
    useNotificationStore.getState().update({ loaded: true });
    await notificationStateRead(1_000);
    useNotificationStore.getState().reset();
    let read = false;
    const waiting = notificationStateRead(60_000).then(() => (read = true));
    await Promise.resolve();
    expect(read).toBe(false);
    useNotificationStore.getState().update({ permission: 'default', loaded: true });
    await waiting;
    expect(read).toBe(true);
  });

  it('waits no longer than its cap', async () => {
    vi.useFakeTimers();
    let read = false;
    const waiting = notificationStateRead(300).then(() => (read = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(read).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(read).toBe(true);
  });
});
