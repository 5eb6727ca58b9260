import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BlockedUser, BlockResult, ConversationMuteResult, MuteResult, Page, ReportCreated } from '../../lib/contract';
import { muteRequestSchema, reportRequestSchema } from '../../lib/contract/schemas';
import { blockUser, listBlocks, unblockUser } from '../db/blocks';
import { setConversationMuted, setMuted, type MuteChange } from '../db/conversations';
import { countUnread } from '../db/messages';
import type { Db } from '../db/engine/open-database';
import { createReport } from '../db/reports';
import { findActiveUser } from '../db/users';
import { authenticateActive } from './authenticate';
import { HttpError, parseBody } from './errors';
import { conversationIdParams, userIdParams, userIdString } from './params';
import { userNotFound } from './users-routes';
import type { PresenceSettingListener, SocketNotifier } from '../realtime/socket-reach';

/**
 * How the HTTP side tells a user's own sockets (every tab and device) what changed; given several
 * users, it is one emit to all of their sockets.
 */
export interface SafetyRoutesDeps {
  db: Db;
  sockets: SocketNotifier;
  presence: PresenceSettingListener;
}

const conversationParams = z.object({ userId: userIdString });

/** Blocks, muting and reports (docs/API.md, "Safety"). */
export function safetyRoutes(app: FastifyInstance, { db, sockets, presence }: SafetyRoutesDeps): void {
  const blockTarget = async (callerId: number, params: unknown) => {
    const { id } = parseBody(userIdParams, params);
    if (id === callerId) throw new HttpError(400, { non_field_errors: ['id: You cannot block yourself.'] });
    if (!(await findActiveUser(db, id))) throw userNotFound();
    return id;
  };

  /**
   * Every device of the caller settles on the change, and the unread total (from which a blocked
   * person's conversation now drops out, or to which it returns) comes with it.
   */
  const announceBlock = async (userId: number, peerId: number, blocked: boolean) => {
    const count = await countUnread(db, userId);
    sockets.notify(userId, 'safety_changed', { type: 'block', user_id: peerId, blocked });
    sockets.notify(userId, 'message_count', { count });
  };

  app.put('/users/:id/block', async (request): Promise<BlockResult> => {
    const { user } = await authenticateActive(db, request);
    const id = await blockTarget(user.id, request.params);
    const { removedFollows } = await blockUser(db, user.id, id);
    await announceBlock(user.id, id, true);
    // The follows the block ended, told as unfollows are: `followed` to the follower, `follower` to the followee.
    for (const payload of removedFollows) {
      sockets.notify(payload.follower_id, 'followed', payload);
      sockets.notify(payload.followee_id, 'follower', payload);
    }
    // A block ends what each already sees of the other, not only what they ask next: both leave
    // each other's presence rooms (through the adapter, on every node) and are told "hidden".
    await Promise.all([presence.review(user.id, id), presence.review(id, user.id)]).catch((error: unknown) => {
      request.log.warn({ err: error }, 'block: presence not reviewed');
    });
    return { user_id: id, blocked: true };
  });

  app.delete('/users/:id/block', async (request): Promise<BlockResult> => {
    const { user } = await authenticateActive(db, request);
    const id = await blockTarget(user.id, request.params);
    await unblockUser(db, user.id, id);
    await announceBlock(user.id, id, false);
    return { user_id: id, blocked: false };
  });

  app.get('/blocks', async (request): Promise<Page<BlockedUser>> => {
    const { user } = await authenticateActive(db, request);
    return { results: await listBlocks(db, user.id), next_cursor: null };
  });

  /**
   * After a mute: 404 when there was no conversation to mute, else every tab of the caller told,
   * by the account's `muted` item and, for a direct conversation, `safety_changed`, which names
   * the person (the client's list keys direct conversations by their person).
   */
  const answerMute = (userId: number, changed: MuteChange | null, muted: boolean): void => {
    if (!changed) throw HttpError.msg(404, 'Conversation not found.');
    if (changed.peerId !== null) sockets.notify(userId, 'safety_changed', { type: 'mute', user_id: changed.peerId, muted });
    if (changed.item) sockets.notify(userId, 'account_item', changed.item);
  };

  app.patch('/conversations/:userId', async (request): Promise<MuteResult> => {
    const { user } = await authenticateActive(db, request);
    const { userId } = parseBody(conversationParams, request.params);
    const { muted } = parseBody(muteRequestSchema, request.body);
    answerMute(user.id, await setMuted(db, user.id, userId, muted), muted);
    return { user_id: userId, muted };
  });

  // The same by conversation: one the caller is not in now (someone else's, or left) is not found, like a missing one.
  app.patch('/c/:conversationId', async (request): Promise<ConversationMuteResult> => {
    const { user } = await authenticateActive(db, request);
    const { conversationId } = parseBody(conversationIdParams, request.params);
    const { muted } = parseBody(muteRequestSchema, request.body);
    answerMute(user.id, await setConversationMuted(db, user.id, conversationId, muted), muted);
    return { conversation_id: conversationId, muted };
  });

  // One account filing report after report is limited (config.ts, report); repeats add to one report.
  app.post('/reports', { config: { rateLimit: 'report' } }, async (request, reply): Promise<ReportCreated> => {
    const { user } = await authenticateActive(db, request);
    const body = parseBody(reportRequestSchema, request.body);
    if (body.user_id === user.id) throw new HttpError(400, { non_field_errors: ['user_id: You cannot report yourself.'] });
    const report = await createReport(db, {
      reporterId: user.id,
      reason: body.reason,
      details: body.details || null,
      messageId: body.message_id,
      userId: body.user_id,
    });
    // Only messages the caller received can be reported: any other id is "not found", like a missing one.
    if (!report) throw body.message_id === undefined ? userNotFound() : HttpError.msg(404, 'Message not found.');
    reply.code(201);
    return { id: report.id, created_at: report.createdAt.toISOString() };
  });
}
