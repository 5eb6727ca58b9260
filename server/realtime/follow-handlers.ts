import type { FastifyBaseLogger } from 'fastify';
import type { FollowedPayload } from '../../lib/contract';
import { followPayloadSchema } from '../../lib/contract/schemas';
import type { Db } from '../db/engine/open-database';
import { setFollow } from '../db/people';
import { CANNOT_FOLLOW } from '../db/safety-rules';
import { findActiveUser } from '../db/users';
import { tooManyRequests, type RateLimiters } from '../security/rate-limit';
import { fieldError, onEvent, refuse } from './handler';
import type { Presence } from './presence/presence';
import { rooms, type RealtimeSocket } from './types';

/**
 * `follow`: follow or unfollow someone; both sides hear about it. Besides the user's `follow`
 * budget, each follower-and-followee pair has its own (`follow_pair`), so a follow/unfollow loop
 * against one person reaches them a few times, not once per toggle.
 */
export function registerFollowHandlers(socket: RealtimeSocket, db: Db, presence: Presence, limiters: RateLimiters, log: FastifyBaseLogger): void {
  onEvent(socket, log, 'follow', followPayloadSchema, async ({ user_id: followeeId, follow }, userId) => {
    if (followeeId === userId) return fieldError('user_id: You cannot follow yourself.');
    const verdict = await limiters.follow_pair.take(`${userId}>${followeeId}`);
    if (!verdict.allowed) return refuse(tooManyRequests(verdict.retryAfterSeconds));
    if (!(await findActiveUser(db, followeeId))) return refuse({ msg: 'User not found.' });
    const change = await setFollow(db, userId, followeeId, follow);
    // One sentence whichever side blocked: a refused follow tells no more than a refused message.
    if (change === 'not_allowed') return fieldError(`user_id: ${CANNOT_FOLLOW}`);
    const { changed, followersCount } = change;
    const payload: FollowedPayload = {
      follower_id: userId,
      followee_id: followeeId,
      following: follow,
      followers_count: followersCount,
    };
    return {
      data: payload,
      broadcast: () => {
        // All the follower's tabs settle on the new state, even when it did not change (the
        // client's follow stream waits for `followed`: docs/CLIENT-RULES.md); the followee only
        // hears about real changes.
        socket.nsp.to(rooms.inboxes(userId)).emit('followed', payload);
        if (changed) socket.nsp.to(rooms.inboxes(followeeId)).emit('follower', payload);
        // Following the followee was what let them see the follower's presence, perhaps.
        if (changed && !follow) {
          presence.review(followeeId, userId).catch((error: unknown) => log.warn({ err: error }, 'presence review failed'));
        }
      },
    };
  });
}
