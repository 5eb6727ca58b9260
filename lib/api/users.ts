// People endpoints (docs/API.md) the client reads over REST: search (in pages) and profiles.
import type { Page, Profile, SearchResult } from '@/lib/contract';
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
