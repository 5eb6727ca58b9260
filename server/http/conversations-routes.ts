import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONVERSATION_PAGE_SIZE, THREAD_PAGE_SIZE, type ConversationSummaryPage, type ConversationThreadPage } from '../../lib/contract';
import { accountCursorNow } from '../db/delivery/account-stream';
import { listConversationThread, type ThreadFrom } from '../db/delivery/conversation-stream';
import { listConversationSummaries } from '../db/delivery/conversation-summaries';
import type { Db } from '../db/engine/open-database';
import { costOfLimit } from '../security/rate-limit';
import { authenticateActive } from './authenticate';
import { conversationCursor, conversationThreadCursor, encodeCursor } from './cursor';
import { HttpError, parseBody } from './errors';
import { conversationIdParams, intString, limitParam } from './params';

/** Largest `?limit=` a thread page accepts (THREAD_PAGE_SIZE is the default). */
const THREAD_MAX_LIMIT = 100;

const conversationsQuery = z.object({ cursor: conversationCursor.optional() });

/** A thread page's query: a cursor, or a message to centre on, and a limit. */
const conversationThreadQuery = z
  .object({
    cursor: conversationThreadCursor.optional(),
    around: intString(1, Number.MAX_SAFE_INTEGER).optional(),
    limit: limitParam(THREAD_PAGE_SIZE, THREAD_MAX_LIMIT),
  })
  .refine((query) => query.cursor === undefined || query.around === undefined, {
    message: 'around: Not with a cursor: the page around a message starts its own cursors.',
  });

/** A thread page is paid for by the THREAD_PAGE_SIZE messages its `limit` lets it read: the app's pages one, the largest two. */
const PAGE_PRICING = { absent: THREAD_PAGE_SIZE, max: THREAD_MAX_LIMIT, unit: THREAD_PAGE_SIZE };
export const threadPageCost = (request: FastifyRequest): number => costOfLimit((request.query as Record<string, unknown> | undefined)?.limit, PAGE_PRICING);

export function conversationsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  // The conversation list: the rows `sync_account` reports, with the cursor it goes on from, read
  // before the page.
  app.get('/c', async (request): Promise<ConversationSummaryPage> => {
    const { user } = await authenticateActive(db, request);
    const { cursor } = parseBody(conversationsQuery, request.query);
    const accountCursor = await accountCursorNow(db, user.id);
    if (accountCursor === null) throw HttpError.msg(404, 'User not found.');
    const page = await listConversationSummaries(db, user.id, cursor?.[1] ?? null, CONVERSATION_PAGE_SIZE);
    return { results: page.results, next_cursor: page.next === null ? null : encodeCursor(['c', page.next]), account_cursor: accountCursor };
  });

  // A conversation's thread: by its seq, each message as every member sees it, with the receipts
  // the caller may see. Someone else's conversation, and a message of it, are not found, like
  // missing ones. `around` and a newer ('w') cursor answer a window with cursors both ways. Its
  // own budget (`page`): the most expensive read an account can ask for over HTTP, paid by the
  // rows it may read (threadPageCost).
  app.get('/c/:conversationId/messages', { config: { rateLimit: 'page', rateCost: threadPageCost } }, async (request): Promise<ConversationThreadPage> => {
    const { user } = await authenticateActive(db, request);
    const { conversationId } = parseBody(conversationIdParams, request.params);
    const { cursor, around, limit } = parseBody(conversationThreadQuery, request.query);
    const from: ThreadFrom =
      around !== undefined ? { around } : cursor === undefined ? { newest: true } : cursor[0] === 'o' ? { before: cursor[1] } : { after: cursor[1] };
    const page = await listConversationThread(db, user.id, conversationId, from, limit);
    if (page === 'no conversation') throw HttpError.msg(404, 'Conversation not found.');
    if (page === 'no message') throw HttpError.msg(404, 'Message not found.');
    return {
      results: page.results,
      next_cursor: page.older === null ? null : encodeCursor(['o', page.older]),
      newer_cursor: page.newer === null ? null : encodeCursor(['w', page.newer]),
      seen: page.seen,
      last_seq: page.lastSeq,
      read_seq: page.readSeq,
    };
  });
}
