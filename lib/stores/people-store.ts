// People: search results for the session's search value, profiles by id, and follow state.
import { create } from 'zustand';
import { userMessage } from '@/lib/api/user-message';
import { getProfile, searchUsers } from '@/lib/api/users';
import type { FollowedPayload, Profile, SearchResult, UserSummary, UserUpdatedPayload } from '@/lib/contract';
import { USER_SEARCH_MAX_QUERY } from '@/lib/contract';
import { socketService } from '@/lib/socket/socket-service';
import {
  applyFollowed,
  applyFollower,
  beginFollow,
  createFollowClock,
  freshProfile,
  rollbackFollow,
  seedUsers,
  type FollowGraph,
  type FollowState,
} from './follow-state';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface PeopleState extends FollowGraph {
  /** The query the results answer (trimmed); '' when no search is active. */
  searchQuery: string;
  searchResults: SearchResult[];
  searchStatus: LoadStatus;
  searchError: string | null;
  profileStatus: Record<number, LoadStatus>;
}

interface PeopleActions {
  /** Searches now; a newer call supersedes (and cancels) an older one. '' clears the results. */
  search: (query: string) => Promise<void>;
  clearSearch: () => void;
  loadProfile: (id: number) => Promise<void>;
  /** Records follow facts from users read elsewhere (conversation list, follow lists). */
  rememberUsers: (users: readonly UserSummary[]) => void;
  /** Optimistic: shown at once, confirmed by the ack, rolled back if the server refuses. */
  setFollowing: (userId: number, follow: boolean) => Promise<void>;
  toggleFollow: (userId: number) => Promise<void>;
  /** `followed` (and follow acks): the signed-in user's follow of someone changed. */
  applyFollowed: (payload: FollowedPayload) => void;
  /** `follower`: someone followed or unfollowed the signed-in user (whether they take the user's messages may follow). */
  applyFollower: (payload: FollowedPayload) => void;
  /**
   * Whether a message to this person would be accepted may have changed (they followed the user,
   * wrote to them, a block ended): read again where they are shown (a search result, a profile).
   */
  recheckCanMessage: (userId: number) => void;
  /** Sign-out: everything forgotten; answers to requests made before are dropped. */
  reset: () => void;
  /** A block changed: the profile shows it at once (and whether a message would go through). */
  applyBlocked: (userId: number, blocked: boolean) => void;
  /** `user_updated`: their profile and search result show the new name and photo, or that they deleted their account. */
  applyUserUpdate: (update: UserUpdatedPayload) => void;
}

export type PeopleStore = PeopleState & PeopleActions;

const initialPeopleState: PeopleState = {
  searchQuery: '',
  searchResults: [],
  searchStatus: 'idle',
  searchError: null,
  profiles: {},
  profileStatus: {},
  follows: {},
  followsYou: {},
};

function normalizeQuery(query: string): string {
  return query.trim().slice(0, USER_SEARCH_MAX_QUERY);
}

export const usePeopleStore = create<PeopleStore>()((set, get) => {
  // Each search gets a number; only the newest may write its results. Aborting alone is not
  // enough: a response can already be resolved when a newer query starts.
  let latestSearch = 0;
  let searchController: AbortController | null = null;
  // Bumped by reset (sign-out), so answers to requests made before it are dropped.
  let generation = 0;
  // What was heard of each person's follow facts, and when, against the reads in flight.
  const clock = createFollowClock();

  function cancelSearch(): number {
    searchController?.abort();
    searchController = null;
    latestSearch += 1;
    return latestSearch;
  }

  return {
    ...initialPeopleState,

    async search(raw) {
      const query = normalizeQuery(raw);
      const ticket = cancelSearch();
      if (query === '') {
        set({ searchQuery: '', searchResults: [], searchStatus: 'idle', searchError: null });
        return;
      }
      const controller = new AbortController();
      searchController = controller;
      // The previous results stay visible while the new ones load.
      set({ searchQuery: query, searchStatus: 'loading', searchError: null });
      const mark = clock.mark();
      try {
        const page = await searchUsers(query, { signal: controller.signal });
        if (ticket !== latestSearch) return;
        set((state) => ({ ...seedUsers(state, page.results, (who) => clock.movedSince(who, mark)), searchResults: page.results, searchStatus: 'ready' }));
      } catch (error) {
        if (ticket !== latestSearch) return;
        set({ searchStatus: 'error', searchError: userMessage(error) });
      } finally {
        if (searchController === controller) searchController = null;
      }
    },

    clearSearch() {
      void get().search('');
    },

    async loadProfile(id) {
      const started = generation;
      set((state) => ({ profileStatus: { ...state.profileStatus, [id]: 'loading' } }));
      const mark = clock.mark();
      try {
        const read: Profile = await getProfile(id);
        if (started !== generation) return;
        let stale = false;
        set((state) => {
          const fresh = freshProfile(state, read, clock.movedSince(id, mark));
          const { profile } = fresh;
          stale = fresh.stale;
          return {
            ...seedUsers(state, [profile], (who) => clock.movedSince(who, mark)),
            profiles: { ...state.profiles, [id]: profile },
            profileStatus: { ...state.profileStatus, [id]: 'ready' },
            // The newer answer: a search result shown says what the profile says.
            searchResults: withCanMessage(state.searchResults, id, profile.can_message),
          };
        });
        // Its counts are older than what was heard meanwhile, and no profile shown had them: read
        // again (once: the next answer finds this one shown).
        if (stale) void get().loadProfile(id);
      } catch {
        // The API client has logged it; the card shows that it could not load.
        if (started !== generation) return;
        set((state) => ({ profileStatus: { ...state.profileStatus, [id]: 'error' } }));
      }
    },

    rememberUsers(users) {
      set((state) => seedUsers(state, users));
    },

    async setFollowing(userId, follow) {
      // One change at a time per person: the ack settles it before the next may start.
      if (get().follows[userId]?.pending) return;
      const started = generation;
      clock.heard(userId);
      set((state) => ({ follows: beginFollow(state.follows, userId, follow) }));
      const ack = await socketService.request('follow', { user_id: userId, follow });
      if (started !== generation) return;
      clock.heard(userId);
      if ('data' in ack) {
        get().applyFollowed(ack.data);
      } else {
        const message = userMessage(ack.error);
        set((state) => ({ follows: rollbackFollow(state.follows, userId, message) }));
        // Refused for who they are now (blocked, gone): what is shown of them is read again.
        if (get().profiles[userId]) void get().loadProfile(userId);
      }
    },

    toggleFollow(userId) {
      return get().setFollowing(userId, !(get().follows[userId]?.following ?? false));
    },

    applyFollowed(payload) {
      // Both ends: their follower count, and the user's own following count.
      clock.heard(payload.followee_id);
      clock.heard(payload.follower_id);
      set((state) => applyFollowed(state, payload));
    },

    applyFollower(payload) {
      clock.heard(payload.follower_id);
      clock.heard(payload.followee_id);
      set((state) => applyFollower(state, payload));
      get().recheckCanMessage(payload.follower_id);
    },

    recheckCanMessage(userId) {
      const state = get();
      if (state.profiles[userId] || state.searchResults.some((person) => person.id === userId)) void state.loadProfile(userId);
    },

    applyBlocked(userId, blocked) {
      clock.heard(userId);
      set((state) => {
        const profile = state.profiles[userId];
        // A block ends the follows both ways; the server's `followed`/`follower` confirm it.
        const follows = blocked ? { ...state.follows, [userId]: { following: false, confirmed: false, pending: false, error: null } } : state.follows;
        const followsYou = blocked ? { ...state.followsYou, [userId]: false } : state.followsYou;
        // Unblocked: whether a message goes through depends on their setting too; the profile is read again.
        const profiles = profile ? { ...state.profiles, [userId]: { ...profile, blocked, can_message: blocked ? false : profile.can_message } } : state.profiles;
        const searchResults = blocked ? withCanMessage(state.searchResults, userId, false) : state.searchResults;
        return { follows, followsYou, profiles, searchResults };
      });
      if (!blocked) get().recheckCanMessage(userId);
    },

    applyUserUpdate({ id, username, avatar, deleted }) {
      set((state) => {
        const profile = state.profiles[id];
        const found = state.searchResults.some((person) => person.id === id);
        if (!profile && !found) return state;
        // Deleted: no one to message or follow any more.
        const gone = deleted ? { deleted: true, is_following: false, follows_you: false } : {};
        return {
          profiles: profile ? { ...state.profiles, [id]: { ...profile, username, avatar, ...gone, ...(deleted ? { can_message: false } : {}) } } : state.profiles,
          searchResults: found ? state.searchResults.map((person) => (person.id === id ? { ...person, username, avatar, ...gone } : person)) : state.searchResults,
        };
      });
    },

    reset() {
      cancelSearch();
      clock.reset();
      generation += 1;
      set(initialPeopleState);
    },
  };
});

/** `results` with this person's can_message as given (the same array when nothing changes). */
function withCanMessage(results: SearchResult[], userId: number, canMessage: boolean): SearchResult[] {
  if (!results.some((person) => person.id === userId && person.can_message !== canMessage)) return results;
  return results.map((person) => (person.id === userId ? { ...person, can_message: canMessage } : person));
}

/** This person is shown (profile or search result) as not taking the user's messages. */
export function refusesMessages(state: PeopleState, userId: number): boolean {
  return state.profiles[userId]?.can_message === false || state.searchResults.some((person) => person.id === userId && !person.can_message);
}

export interface FollowView {
  following: boolean;
  followsYou: boolean;
  pending: boolean;
  error: string | null;
}

type FollowSubject = Pick<UserSummary, 'id' | 'is_following' | 'follows_you'>;

/** Follow state of a user as a component shows it; the summary's own fields until we know more. */
function followView(entry: FollowState | undefined, followsYou: boolean | undefined, user: FollowSubject): FollowView {
  return {
    following: entry?.following ?? user.is_following,
    followsYou: followsYou ?? user.follows_you,
    pending: entry?.pending ?? false,
    error: entry?.error ?? null,
  };
}

export const useProfile = (id: number) => usePeopleStore((state) => state.profiles[id]);
export const useProfileStatus = (id: number) => usePeopleStore((state) => state.profileStatus[id] ?? 'idle');

/** Re-renders only when this user's follow state changes. */
export function useFollowView(user: FollowSubject): FollowView {
  const entry = usePeopleStore((state) => state.follows[user.id]);
  const followsYou = usePeopleStore((state) => state.followsYou[user.id]);
  return followView(entry, followsYou, user);
}
