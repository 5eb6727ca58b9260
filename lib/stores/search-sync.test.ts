import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page, UserSummary } from '@/lib/contract';
import { usePeopleStore } from './people-store';
import { startSearchSync } from './search-sync';
import { useSessionStore } from './session-store';

const users = vi.hoisted(() => ({
  searchUsers: vi.fn<(q: string) => Promise<Page<UserSummary>>>(),
  getProfile: vi.fn(),
}));
vi.mock('@/lib/api/users', () => users);

const bob: UserSummary = { id: 2, username: 'bob', avatar: null, is_following: false, follows_you: false, deleted: false };
const type = (value: string) => useSessionStore.getState().setSearch(value);

describe('search sync', () => {
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    usePeopleStore.getState().reset();
    users.searchUsers.mockReset();
    users.searchUsers.mockImplementation(async (q) => ({ results: [{ ...bob, username: q }], next_cursor: null }));
    stop = startSearchSync(300);
  });

  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('searches once per pause in typing, for the latest value', async () => {
    type('b');
    vi.advanceTimersByTime(100);
    type('bo');
    vi.advanceTimersByTime(100);
    type('bob');
    expect(users.searchUsers).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(300);
    expect(users.searchUsers).toHaveBeenCalledExactlyOnceWith('bob', expect.anything());
    expect(usePeopleStore.getState().searchResults[0]?.username).toBe('bob');
  });

  it('clearing the box clears the results at once and drops the pending search', async () => {
    type('bob');
    await vi.advanceTimersByTimeAsync(300);
    type('bo');
    type('');
    expect(usePeopleStore.getState()).toMatchObject({ searchResults: [], searchStatus: 'idle' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(users.searchUsers).toHaveBeenCalledOnce();
  });

  it('stops following the value once stopped', async () => {
    stop();
    type('bob');
    await vi.advanceTimersByTimeAsync(1000);
    expect(users.searchUsers).not.toHaveBeenCalled();
  });

  it('searches a value that was already there when it started', async () => {
    stop();
    type('bea');
    stop = startSearchSync(300);
    await vi.advanceTimersByTimeAsync(300);
    expect(users.searchUsers).toHaveBeenCalledExactlyOnceWith('bea', expect.anything());
  });
});
