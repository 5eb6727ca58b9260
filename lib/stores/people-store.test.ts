import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page, Profile, SearchResult, UserSummary } from '@/lib/contract';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import { deferred, settle, type Deferred } from '@/lib/testing/deferred';
import { useFollowView, usePeopleStore } from './people-store';

const users = vi.hoisted(() => ({
  searchUsers: vi.fn<(q: string, options?: { signal?: AbortSignal }) => Promise<Page<SearchResult>>>(),
  getProfile: vi.fn<(id: number) => Promise<Profile>>(),
}));
vi.mock('@/lib/api/users', () => users);
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

const bob: SearchResult = { id: 2, username: 'bob', avatar: null, is_following: false, follows_you: true, deleted: false, can_message: true };
const bea: SearchResult = { id: 3, username: 'bea', avatar: null, is_following: true, follows_you: false, deleted: false, can_message: true };
const page = (...results: SearchResult[]): Page<SearchResult> => ({ results, next_cursor: null });
const profile = (user: UserSummary, followers = 1, following = 1): Profile => ({
  ...user,
  followers_count: followers,
  following_count: following,
  blocked: false,
  can_message: true,
  conversation_id: null,
});
const people = () => usePeopleStore.getState();

/** This person's follow state as a component shows it (through useFollowView). */
function shownFollow(user: SearchResult) {
  const { result, unmount } = renderHook(() => useFollowView(user));
  unmount();
  return result.current;
}

describe('people store: search', () => {
  beforeEach(() => {
    usePeopleStore.getState().reset();
    resetFakeSocketService();
    users.searchUsers.mockReset();
    users.getProfile.mockReset();
  });

  it('shows the results of the query, trimmed, and records follow facts', async () => {
    users.searchUsers.mockResolvedValue(page(bob, bea));
    await people().search('  b ');
    expect(users.searchUsers).toHaveBeenCalledExactlyOnceWith('b', { signal: expect.any(AbortSignal) });
    expect(people()).toMatchObject({ searchQuery: 'b', searchResults: [bob, bea], searchStatus: 'ready' });
    expect(shownFollow(bob)).toEqual({ following: false, followsYou: true, pending: false, error: null });
    expect(people().follows[3]?.following).toBe(true);
  });

  it('a stale response never overwrites a newer query, and the older request is aborted', async () => {
    const calls: { q: string; signal?: AbortSignal; reply: Deferred<Page<SearchResult>> }[] = [];
    users.searchUsers.mockImplementation((q, options) => {
      const reply = deferred<Page<SearchResult>>();
      calls.push({ q, signal: options?.signal, reply });
      return reply.promise;
    });
    const first = people().search('b');
    const second = people().search('be');
    expect(calls[0]?.signal?.aborted).toBe(true);
    calls[1]?.reply.resolve(page(bea));
    calls[0]?.reply.resolve(page(bob, bea));
    await Promise.all([first, second]);
    expect(people()).toMatchObject({ searchQuery: 'be', searchResults: [bea], searchStatus: 'ready' });
  });

  it('a stale failure does not mark the newer search failed', async () => {
    const older = deferred<Page<SearchResult>>();
    users.searchUsers.mockReturnValueOnce(older.promise).mockResolvedValueOnce(page(bob));
    const first = people().search('b');
    await people().search('bo');
    older.reject(new DOMException('aborted', 'AbortError'));
    await first;
    expect(people()).toMatchObject({ searchStatus: 'ready', searchError: null, searchResults: [bob] });
  });

  it('a failed search reports its message', async () => {
    users.searchUsers.mockRejectedValue(new TypeError('Failed to fetch'));
    await people().search('bo');
    expect(people()).toMatchObject({ searchStatus: 'error', searchError: 'Can’t reach Parley. Check your connection.' });
  });

  it('an empty query clears the results without a request and cancels one in flight', async () => {
    const pending = deferred<Page<SearchResult>>();
    users.searchUsers.mockReturnValueOnce(pending.promise);
    const first = people().search('bo');
    await people().search('   ');
    pending.resolve(page(bob));
    await first;
    expect(users.searchUsers).toHaveBeenCalledOnce();
    expect(people()).toMatchObject({ searchQuery: '', searchResults: [], searchStatus: 'idle' });
  });

  it('loadProfile stores the profile and its follow facts; a reset drops a late answer', async () => {
    users.getProfile.mockResolvedValueOnce(profile(bob, 4, 5));
    await people().loadProfile(2);
    expect(people().profiles[2]).toEqual(profile(bob, 4, 5));
    expect(people().profileStatus[2]).toBe('ready');
    expect(people().followsYou[2]).toBe(true);

    const late = deferred<Profile>();
    users.getProfile.mockReturnValueOnce(late.promise);
    const loading = people().loadProfile(3);
    usePeopleStore.getState().reset();
    late.resolve(profile(bea));
    await loading;
    expect(people().profiles).toEqual({});
  });

  it('a search result says what the person’s latest profile says about taking the user’s messages', async () => {
    users.searchUsers.mockResolvedValue(page({ ...bob, can_message: false }, bea));
    await people().search('b');
    users.getProfile.mockResolvedValue({ ...profile(bob), can_message: true });
    await people().loadProfile(bob.id);
    expect(people().searchResults.map((person) => person.can_message)).toEqual([true, true]);
  });

  it('follows the truth: someone shown refusing who then follows the user is read again', async () => {
    users.searchUsers.mockResolvedValue(page({ ...bob, can_message: false }));
    await people().search('b');
    users.getProfile.mockResolvedValue({ ...profile(bob), can_message: true });
    people().applyFollower({ follower_id: bob.id, followee_id: 1, following: true, followers_count: 1 });
    await vi.waitFor(() => expect(people().searchResults[0]?.can_message).toBe(true));
    // Someone not shown anywhere is not read.
    people().applyFollower({ follower_id: 99, followee_id: 1, following: true, followers_count: 2 });
    expect(users.getProfile).toHaveBeenCalledTimes(1);
  });

  it('a block takes Message away from the result at once; an unblock reads it again', async () => {
    users.searchUsers.mockResolvedValue(page(bob));
    await people().search('b');
    people().applyBlocked(bob.id, true);
    expect(people().searchResults[0]?.can_message).toBe(false);
    users.getProfile.mockResolvedValue(profile(bob));
    people().applyBlocked(bob.id, false);
    await vi.waitFor(() => expect(people().searchResults[0]?.can_message).toBe(true));
  });

  it('a profile that fails to load is marked so', async () => {
    users.getProfile.mockRejectedValue(new Error('Not found.'));
    await people().loadProfile(9);
    expect(people().profileStatus[9]).toBe('error');
  });
});

describe('people store: following', () => {
  beforeEach(() => {
    usePeopleStore.getState().reset();
    resetFakeSocketService();
    users.searchUsers.mockReset();
    users.getProfile.mockReset();
  });

  it('follows optimistically, then takes the ack as confirmed', async () => {
    const socket = connectFakeSocket(7);
    const ack = deferred<unknown>();
    socket.ackResponder = () => ack.promise;
    people().rememberUsers([bob]);
    const following = people().toggleFollow(2);
    expect(people().follows[2]).toMatchObject({ following: true, confirmed: false, pending: true });
    expect(socket.sentEvents('follow')[0]?.[1]).toEqual({ user_id: 2, follow: true });
    ack.resolve({ data: { follower_id: 7, followee_id: 2, following: true, followers_count: 3 } });
    await following;
    expect(people().follows[2]).toEqual({ following: true, confirmed: true, pending: false, error: null });
  });

  it('rolls back with the server message when the ack is an error', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = async () => ({ error: { msg: 'This account has been deactivated.' } });
    people().rememberUsers([bea]);
    await people().setFollowing(3, false);
    expect(people().follows[3]).toEqual({
      following: true,
      confirmed: true,
      pending: false,
      error: 'This account can’t do that.',
    });
  });

  it('rolls back when not connected', async () => {
    people().rememberUsers([bob]);
    await people().toggleFollow(2);
    expect(people().follows[2]).toMatchObject({ following: false, pending: false, error: 'Can’t reach Parley. Check your connection.' });
  });

  it('ignores a second change while the first is pending', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = () => new Promise(() => undefined);
    people().rememberUsers([bob]);
    void people().toggleFollow(2);
    void people().toggleFollow(2);
    expect(socket.sentEvents('follow')).toHaveLength(1);
    expect(people().follows[2]?.following).toBe(true);
  });

  it('a later REST read does not undo a pending change', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = () => new Promise(() => undefined);
    people().rememberUsers([bob]);
    void people().toggleFollow(2);
    people().rememberUsers([{ ...bob, follows_you: false }]);
    expect(people().follows[2]).toMatchObject({ following: true, pending: true });
    expect(people().followsYou[2]).toBe(false);
  });

  it('a profile read before an unfollow, answering after its ack, does not undo it', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = async () => ({ data: { follower_id: 7, followee_id: 2, following: false, followers_count: 0 } });
    usePeopleStore.setState({ profiles: { 2: profile({ ...bob, is_following: true }, 1, 0) } });
    people().rememberUsers([{ ...bob, is_following: true }]);
    const read = deferred<Profile>();
    users.getProfile.mockReturnValue(read.promise);
    const loading = people().loadProfile(2);
    await people().setFollowing(2, false);
    // What the server knew when the read ran: still followed, one follower.
    read.resolve(profile({ ...bob, is_following: true, follows_you: false }, 1, 0));
    await loading;
    expect(people().follows[2]).toMatchObject({ following: false, confirmed: false });
    expect(people().profiles[2]).toMatchObject({ is_following: false, followers_count: 0 });
    // Nothing moved during the next read: its answer is taken whole.
    users.getProfile.mockResolvedValue(profile({ ...bob, is_following: true, follows_you: false }, 4, 0));
    await people().loadProfile(2);
    expect(people().follows[2]?.following).toBe(true);
    expect(people().profiles[2]).toMatchObject({ followers_count: 4, follows_you: false });
  });

  it('overlapping reads with nothing heard between them take each answer as it comes, the last one staying', async () => {
    const reads = [deferred<Profile>(), deferred<Profile>()];
    users.getProfile.mockReturnValueOnce(reads[0]!.promise).mockReturnValueOnce(reads[1]!.promise);
    const first = people().loadProfile(2);
    const second = people().loadProfile(2);
    reads[0]!.resolve(profile(bob, 3, 0));
    await first;
    expect(people().profiles[2]?.followers_count).toBe(3);
    reads[1]!.resolve(profile({ ...bob, is_following: true }, 4, 0));
    await second;
    expect(people().profiles[2]).toMatchObject({ followers_count: 4, is_following: true });
    expect(people().follows[2]?.following).toBe(true);
  });

  it('a first read of a profile that answers after a follow ack shows the follow, and is read again for its counts', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = async () => ({ data: { follower_id: 7, followee_id: 2, following: true, followers_count: 1 } });
    people().rememberUsers([bob]);
    const read = deferred<Profile>();
    users.getProfile.mockReturnValueOnce(read.promise).mockResolvedValueOnce(profile({ ...bob, is_following: true }, 1, 0));
    const loading = people().loadProfile(2);
    await people().setFollowing(2, true);
    read.resolve(profile(bob, 0, 0));
    await loading;
    expect(people().profiles[2]?.is_following).toBe(true);
    await vi.waitFor(() => expect(people().profiles[2]?.followers_count).toBe(1));
    expect(users.getProfile).toHaveBeenCalledTimes(2);
  });

  it('a search read before a follow, answering after its ack, does not undo it', async () => {
    const socket = connectFakeSocket(7);
    socket.ackResponder = async () => ({ data: { follower_id: 7, followee_id: 2, following: true, followers_count: 1 } });
    people().rememberUsers([bob]);
    const answer = deferred<Page<SearchResult>>();
    users.searchUsers.mockReturnValue(answer.promise);
    const searching = people().search('b');
    await people().setFollowing(2, true);
    answer.resolve(page(bob, bea));
    await searching;
    expect(people().follows[2]?.following).toBe(true);
    // Someone the read moved nothing about is taken from it.
    expect(people().follows[3]?.following).toBe(true);
  });

  it('followed (ack and event) moves counts once; the followee shows the new follower count', () => {
    usePeopleStore.setState({ profiles: { 7: profile({ ...bob, id: 7 }, 0, 1), 2: profile(bob, 5, 0) } });
    people().rememberUsers([bob]);
    const payload = { follower_id: 7, followee_id: 2, following: true, followers_count: 6 };
    people().applyFollowed(payload);
    people().applyFollowed(payload);
    expect(people().profiles[2]).toMatchObject({ followers_count: 6, is_following: true });
    expect(people().profiles[7]?.following_count).toBe(2);
    people().applyFollowed({ ...payload, following: false, followers_count: 5 });
    expect(people().profiles[7]?.following_count).toBe(1);
    expect(people().follows[2]?.following).toBe(false);
  });

  it('follower updates "follows you", my follower count and their following count', () => {
    usePeopleStore.setState({ profiles: { 7: profile({ ...bob, id: 7 }, 0, 0), 3: profile(bea, 0, 4) } });
    people().rememberUsers([bea]);
    const payload = { follower_id: 3, followee_id: 7, following: true, followers_count: 1 };
    people().applyFollower(payload);
    people().applyFollower(payload);
    expect(people().profiles[7]?.followers_count).toBe(1);
    expect(people().profiles[3]).toMatchObject({ follows_you: true, following_count: 5 });
    expect(shownFollow(bea)).toMatchObject({ following: true, followsYou: true });
  });

  it('an ack arriving after a reset (sign-out) changes nothing', async () => {
    const socket = connectFakeSocket(7);
    const ack = deferred<unknown>();
    socket.ackResponder = () => ack.promise;
    const following = people().setFollowing(2, true);
    usePeopleStore.getState().reset();
    ack.resolve({ data: { follower_id: 7, followee_id: 2, following: true, followers_count: 1 } });
    await following;
    await settle();
    expect(people().follows).toEqual({});
  });
});
