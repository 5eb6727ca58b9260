// People: search, profiles and follow lists. REST, read in pages.

/** Another user as lists show them. Email is private and never part of it. */
export interface UserSummary {
  id: number;
  username: string | null;
  avatar: string | null;
  /** The signed-in user follows this person. */
  is_following: boolean;
  /** This person follows the signed-in user. */
  follows_you: boolean;
  /** The account was deleted: no name or face any more ("Deleted account"); it cannot be messaged. */
  deleted: boolean;
}

export interface Profile extends UserSummary {
  followers_count: number;
  following_count: number;
  /** The signed-in user blocked this person. */
  blocked: boolean;
  /**
   * A message from the signed-in user to this person would be accepted now: no block either way,
   * and their "who can message me" setting lets the signed-in user start (or continue) a conversation.
   */
  can_message: boolean;
  /** The signed-in user's direct conversation with this person (socket protocol 2 names it); null before their first message. */
  conversation_id: number | null;
}

/** A search result: the summary, and whether a message from the signed-in user would be accepted now (as Profile's). */
export interface SearchResult extends UserSummary {
  can_message: boolean;
}

/** A page of results; pass `next_cursor` back as `?cursor=` for the next one (null: no more). */
export interface Page<T> {
  results: T[];
  next_cursor: string | null;
}

/** GET /api/users/search?q=<name or email prefix>&limit=<1..50> → Page<SearchResult> */
export const USER_SEARCH_DEFAULT_LIMIT = 20;
export const USER_SEARCH_MAX_LIMIT = 50;
export const USER_SEARCH_MAX_QUERY = 100;

/** GET /api/users/:id → Profile; GET /api/users/:id/followers|following?cursor= → Page<UserSummary> */
export const FOLLOW_LIST_PAGE_SIZE = 50;
