import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CONVERSATION_PAGE_SIZE,
  THREAD_PAGE_SIZE,
  type ConversationPage,
  type MessagePayload,
  type Page,
} from '../../lib/contract';
import { listConversations } from '../db/conversations';
import { listThread, streamStateOf } from '../db/messages';
import type { Db } from '../db/open-database';
import { findConversationPeer } from '../db/users';
import { authenticateActive } from './authenticate';
import { conversationCursor, encodeCursor, threadCursor } from './cursor';
import { HttpError, parseBody } from './errors';
import { limitParam, userIdString } from './params';
import { userNotFound } from './users-routes';

/** Largest `?limit=` a thread page accepts (THREAD_PAGE_SIZE is the default). */
export const THREAD_MAX_LIMIT = 100;

const conversationsQuery = z.object({ cursor: conversationCursor.optional() });
const threadParams = z.object({ userId: userIdString });
const threadQuery = z.object({
  cursor: threadCursor.optional(),
  limit: limitParam(THREAD_PAGE_SIZE, THREAD_MAX_LIMIT),
});

export function conversationsRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  app.get('/conversations', async (request): Promise<ConversationPage> => {
    const { user } = await authenticateActive(db, request);
    const { cursor } = parseBody(conversationsQuery, request.query);
    // Read before the page: every message and change up to it is committed, so the page reflects it.
    const stream = await streamStateOf(db, user.id);
    if (!stream) throw HttpError.msg(404, 'User not found.');
    const page = await listConversations(db, user.id, cursor?.[1] ?? null, CONVERSATION_PAGE_SIZE, stream.readReceipts);
    return {
      results: page.results,
      next_cursor: page.next === null ? null : encodeCursor(['c', page.next]),
      last_seq: stream.lastSeq,
    };
  });

  // Only ever the caller's own conversation with :userId: the caller is always one side of the pair.
  app.get('/conversations/:userId/messages', async (request): Promise<Page<MessagePayload>> => {
    const { user } = await authenticateActive(db, request);
    const { userId } = parseBody(threadParams, request.params);
    const { cursor, limit } = parseBody(threadQuery, request.query);
    if (userId === user.id) throw new HttpError(400, { non_field_errors: ['userId: You have no conversation with yourself.'] });
    // A deleted account's messages stay with the other side (docs/DECISIONS.md).
    const peer = await findConversationPeer(db, userId);
    if (!peer) throw userNotFound();
    const page = await listThread(db, user.id, userId, cursor?.[1] ?? null, limit, user.readReceipts && peer.readReceipts);
    return { results: page.results, next_cursor: page.next === null ? null : encodeCursor(['m', page.next]) };
  });
}
