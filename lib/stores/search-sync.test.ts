import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageSearchResult, Page, UserSummary } from '@/lib/contract';
import { useMessageSearchStore } from './message-search-store';
import { usePeopleStore } from './people-store';
import { retryFailedSearches, startSearchSync } from './search-sync';
import { useSessionStore } from './session-store';

const users = vi.hoisted(() => ({
  searchUsers: vi.fn<(q: string) => Promise<Page<UserSummary>>>(),
  getProfile: vi.fn(),
}));
vi.mock('@/lib/api/users', () => users);
const messageSearch = vi.hoisted(() => ({ searchMessages: vi.fn<(q: string) => Promise<Page<MessageSearchResult>>>() }));
vi.mock('@/lib/api/message-search', () => messageSearch);

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

describe('retryFailedSearches', () => {
  beforeEach(() => {
    usePeopleStore.getState().reset();
    useMessageSearchStore.getState().reset();
    useSessionStore.getState().setSearch('');
    users.searchUsers.mockReset();
    messageSearch.searchMessages.mockReset();
  });

  it('runs a failed people search again for the value in the box: the error goes, the results come', async () => {
    users.searchUsers.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    useSessionStore.getState().setSearch('bob');
    await usePeopleStore.getState().search('bob');
    expect(usePeopleStore.getState().searchStatus).toBe('error');
    users.searchUsers.mockResolvedValueOnce({ results: [bob], next_cursor: null });
    retryFailedSearches();
    expect(usePeopleStore.getState()).toMatchObject({ searchStatus: 'loading', searchError: null });
    await vi.waitFor(() => expect(usePeopleStore.getState()).toMatchObject({ searchStatus: 'ready', searchResults: [bob], searchError: null }));
    expect(users.searchUsers).toHaveBeenLastCalledWith('bob', expect.anything());
  });

  it('runs a failed message search again while its panel is open', async () => {
    messageSearch.searchMessages.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const store = useMessageSearchStore.getState();
    store.setOpen(true);
    store.setQuery('kayak');
    await useMessageSearchStore.getState().search();
    expect(useMessageSearchStore.getState().status).toBe('error');
    messageSearch.searchMessages.mockResolvedValueOnce({ results: [], next_cursor: null });
    retryFailedSearches();
    await vi.waitFor(() => expect(useMessageSearchStore.getState()).toMatchObject({ status: 'ready', error: null }));
    expect(messageSearch.searchMessages).toHaveBeenLastCalledWith('kayak');
  });

  it('leaves searches that did not fail, and an emptied box, alone', async () => {
    users.searchUsers.mockResolvedValue({ results: [bob], next_cursor: null });
    useSessionStore.getState().setSearch('bob');
    await usePeopleStore.getState().search('bob');
    retryFailedSearches();
    expect(users.searchUsers).toHaveBeenCalledOnce();
    users.searchUsers.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await usePeopleStore.getState().search('bo');
    useSessionStore.getState().setSearch('');
    retryFailedSearches();
    expect(users.searchUsers).toHaveBeenCalledTimes(2);
  });
});
