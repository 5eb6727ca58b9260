import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CONVERSATION_PAGE_SIZE,
  THREAD_PAGE_SIZE,
  type ConversationPage,
  type ConversationSummaryPage,
  type ConversationThreadPage,
  type ThreadPage,
} from '../../lib/contract';
import { hasConversation, listConversations } from '../db/conversations';
import { accountCursorNow } from '../db/delivery/account-stream';
import { listConversationThread, type ThreadFrom } from '../db/delivery/conversation-stream';
import { listConversationSummaries } from '../db/delivery/conversation-summaries';
import { listThread, listThreadAround, listThreadNewer, streamStateOf, type ThreadWindow } from '../db/messages';
import type { Db } from '../db/engine/open-database';
import { findConversationPeer } from '../db/users';
import { costOfLimit } from '../security/rate-limit';
import { authenticateActive } from './authenticate';
import { conversationCursor, conversationThreadCursor, encodeCursor, threadCursor } from './cursor';
import { HttpError, parseBody } from './errors';
import { conversationIdParams, intString, limitParam, userIdString } from './params';
import { userNotFound } from './users-routes';

/** Largest `?limit=` a thread page accepts (THREAD_PAGE_SIZE is the default). */
const THREAD_MAX_LIMIT = 100;

const conversationsQuery = z.object({ cursor: conversationCursor.optional() });
const threadParams = z.object({ userId: userIdString });

/** A thread page's query, by person or by conversation (each with its own cursors): a cursor, or a message to centre on, and a limit. */
const threadQueryOf = <C extends z.ZodType>(cursor: C) =>
  z
    .object({
      cursor: cursor.optional(),
      around: intString(1, Number.MAX_SAFE_INTEGER).optional(),
      limit: limitParam(THREAD_PAGE_SIZE, THREAD_MAX_LIMIT),
    })
    .refine((query) => query.cursor === undefined || query.around === undefined, {
      message: 'around: Not with a cursor: the page around a message starts its own cursors.',
    });
const threadQuery = threadQueryOf(threadCursor);
const conversationThreadQuery = threadQueryOf(conversationThreadCursor);

/** A thread page is paid for by the THREAD_PAGE_SIZE messages its `limit` lets it read: the app's pages one, the largest two. */
const PAGE_PRICING = { absent: THREAD_PAGE_SIZE, max: THREAD_MAX_LIMIT, unit: THREAD_PAGE_SIZE };
export const threadPageCost = (request: FastifyRequest): number => costOfLimit((request.query as Record<string, unknown> | undefined)?.limit, PAGE_PRICING);

export function conversationsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  app.get('/conversations', async (request): Promise<ConversationPage> => {
    const { user } = await authenticateActive(db, request);
    const { cursor } = parseBody(conversationsQuery, request.query);
    // Read before the page: every message and change up to it is committed, so the page reflects it.
    const [stream, accountCursor] = await Promise.all([streamStateOf(db, user.id), accountCursorNow(db, user.id)]);
    if (!stream || accountCursor === null) throw HttpError.msg(404, 'User not found.');
    const page = await listConversations(db, user.id, cursor?.[1] ?? null, CONVERSATION_PAGE_SIZE, stream.readReceipts);
    return {
      results: page.results,
      next_cursor: page.next === null ? null : encodeCursor(['c', page.next]),
      last_seq: stream.lastSeq,
      account_cursor: accountCursor,
    };
  });

  // The same list by conversation (protocol 2's clients): the rows `sync_account` reports, with the
  // cursor it goes on from, read before the page.
  app.get('/c', async (request): Promise<ConversationSummaryPage> => {
    const { user } = await authenticateActive(db, request);
    const { cursor } = parseBody(conversationsQuery, request.query);
    const accountCursor = await accountCursorNow(db, user.id);
    if (accountCursor === null) throw HttpError.msg(404, 'User not found.');
    const page = await listConversationSummaries(db, user.id, cursor?.[1] ?? null, CONVERSATION_PAGE_SIZE);
    return { results: page.results, next_cursor: page.next === null ? null : encodeCursor(['c', page.next]), account_cursor: accountCursor };
  });

  // Only ever the caller's own conversation with :userId: the caller is always one side of the pair.
  // `around` and a newer ('n') cursor answer a window with cursors both ways (ThreadPage).
  // Its own budget (`page`): the most expensive read an account can ask for over HTTP, paid by the
  // rows it may read (threadPageCost).
  app.get('/conversations/:userId/messages', { config: { rateLimit: 'page', rateCost: threadPageCost } }, async (request): Promise<ThreadPage> => {
    const { user } = await authenticateActive(db, request);
    const { userId } = parseBody(threadParams, request.params);
    const { cursor, around, limit } = parseBody(threadQuery, request.query);
    if (userId === user.id) throw new HttpError(400, { non_field_errors: ['userId: You have no conversation with yourself.'] });
    // A deleted account's messages stay with the other side (docs/DECISIONS.md); with no
    // conversation to keep, there is no one there: not found, as a deactivated account is.
    const peer = await findConversationPeer(db, userId);
    if (!peer || (peer.deletedAt !== null && !(await hasConversation(db, user.id, userId)))) throw userNotFound();
    const receipts = user.readReceipts && peer.readReceipts;
    if (around !== undefined) {
      const window = await listThreadAround(db, user.id, userId, around, limit, receipts);
      // The same answer for an unknown id, another conversation's and one the caller hid.
      if (!window) throw HttpError.msg(404, 'Message not found.');
      return toWindowPage(window);
    }
    if (cursor?.[0] === 'n') return toWindowPage(await listThreadNewer(db, user.id, userId, cursor[1], limit, receipts));
    const page = await listThread(db, user.id, userId, cursor?.[1] ?? null, limit, receipts);
    return { results: page.results, next_cursor: page.next === null ? null : encodeCursor(['m', page.next]) };
  });

  // The same thread by conversation (protocol 2's clients): by its seq, each message as every
  // member sees it, with the receipts the caller may see. Someone else's conversation, and a
  // message of it, are not found, like missing ones. The same budget.
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

function toWindowPage({ results, older, newer }: ThreadWindow): ThreadPage {
  return {
    results,
    next_cursor: older === null ? null : encodeCursor(['m', older]),
    newer_cursor: newer === null ? null : encodeCursor(['n', newer]),
  };
}
