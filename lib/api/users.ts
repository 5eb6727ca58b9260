// People endpoints (docs/API.md): search, profiles, follow lists. Read over REST, in pages.
import type { Page, Profile, SearchResult, UserSummary } from '@/lib/contract';
import { USER_SEARCH_DEFAULT_LIMIT, USER_SEARCH_MAX_QUERY } from '@/lib/contract';
import { api } from './client';

export interface SearchOptions {
  /** Aborting cancels the request: typing a newer query abandons the older one. */
  signal?: AbortSignal;
  limit?: number;
}

export function searchUsers(q: string, { signal, limit = USER_SEARCH_DEFAULT_LIMIT }: SearchOptions = {}) {
  const searchParams = { q: q.slice(0, USER_SEARCH_MAX_QUERY), limit };
  return api.get('users/search', { searchParams, signal }).json<Page<SearchResult>>();
}

export function getProfile(id: number): Promise<Profile> {
  return api.get(`users/${id}`).json<Profile>();
}

function cursorParams(cursor?: string | null): Record<string, string> {
  return cursor ? { cursor } : {};
}

export function listFollowers(id: number, cursor?: string | null): Promise<Page<UserSummary>> {
  return api.get(`users/${id}/followers`, { searchParams: cursorParams(cursor) }).json<Page<UserSummary>>();
}

export function listFollowing(id: number, cursor?: string | null): Promise<Page<UserSummary>> {
  return api.get(`users/${id}/following`, { searchParams: cursorParams(cursor) }).json<Page<UserSummary>>();
}
