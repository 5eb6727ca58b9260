import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MESSAGE_SEARCH_MAX_QUERY, MESSAGE_SEARCH_PAGE_SIZE, type MessageSearchResult, type Page } from '../../lib/contract';
import { searchMessages } from '../db/message-search';
import type { Db } from '../db/engine/open-database';
import { authenticateActive } from './authenticate';
import { encodeCursor, messageSearchCursor } from './cursor';
import { HttpError, parseBody } from './errors';

const searchQuery = z.object({
  q: z.string().trim().min(1).max(MESSAGE_SEARCH_MAX_QUERY),
  cursor: messageSearchCursor.optional(),
});

/** Search in the caller's own messages; rate-limited with people search (the same kind of work). */
export function messageSearchRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  app.get('/messages/search', { config: { rateLimit: 'search' } }, async (request): Promise<Page<MessageSearchResult>> => {
    const { user } = await authenticateActive(db, request);
    const { q, cursor } = parseBody(searchQuery, request.query);
    const page = await searchMessages(db, user.id, q, cursor?.[1] ?? null, MESSAGE_SEARCH_PAGE_SIZE);
    // Only punctuation or symbols: nothing a message's words could start with.
    if (!page) throw new HttpError(400, { non_field_errors: ['q: Type at least one letter or digit.'] });
    return { results: page.results, next_cursor: page.next === null ? null : encodeCursor(['s', page.next]) };
  });
}
