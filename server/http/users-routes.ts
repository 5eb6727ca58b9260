import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  FOLLOW_LIST_PAGE_SIZE,
  USER_SEARCH_DEFAULT_LIMIT,
  USER_SEARCH_MAX_LIMIT,
  USER_SEARCH_MAX_QUERY,
  type Page,
  type Profile,
  type UserSummary,
} from '../../lib/contract';
import type { Db } from '../db/engine/open-database';
import { getProfile, listFollows, searchUsers } from '../db/people';
import { findActiveUser } from '../db/users';
import { authenticateActive } from './authenticate';
import { encodeCursor, followCursor } from './cursor';
import { HttpError, parseBody } from './errors';
import { limitParam, userIdParams } from './params';

const searchQuery = z.object({
  q: z.string().trim().min(1).max(USER_SEARCH_MAX_QUERY),
  limit: limitParam(USER_SEARCH_DEFAULT_LIMIT, USER_SEARCH_MAX_LIMIT),
});
const followListQuery = z.object({ cursor: followCursor.optional() });

export const userNotFound = () => HttpError.msg(404, 'User not found.');

/** People: search, profiles, follow lists. Inactive accounts are invisible (404, never listed). */
export function usersRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  // Search answers the best `limit` matches; there is no further page (next_cursor is always null).
  app.get('/users/search', { config: { rateLimit: 'search' } }, async (request): Promise<Page<UserSummary>> => {
    const { user } = await authenticateActive(db, request);
    const { q, limit } = parseBody(searchQuery, request.query);
    return { results: await searchUsers(db, user.id, q, limit), next_cursor: null };
  });

  app.get('/users/:id', async (request): Promise<Profile> => {
    const { user } = await authenticateActive(db, request);
    const { id } = parseBody(userIdParams, request.params);
    const profile = await getProfile(db, user.id, id);
    if (!profile) throw userNotFound();
    return profile;
  });

  for (const side of ['followers', 'following'] as const) {
    app.get(`/users/:id/${side}`, async (request): Promise<Page<UserSummary>> => {
      const { user } = await authenticateActive(db, request);
      const { id } = parseBody(userIdParams, request.params);
      const { cursor } = parseBody(followListQuery, request.query);
      if (!(await findActiveUser(db, id))) throw userNotFound();
      const after = cursor ? { followedAt: new Date(cursor[1]), userId: cursor[2] } : null;
      const page = await listFollows(db, side, user.id, id, after, FOLLOW_LIST_PAGE_SIZE);
      return {
        results: page.results,
        next_cursor: page.next && encodeCursor(['f', page.next.followedAt.getTime(), page.next.userId]),
      };
    });
  }
}
