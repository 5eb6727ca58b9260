import type { FastifyBaseLogger } from 'fastify';
import { visibilityPayloadSchema } from '../../lib/contract/schemas';
import type { VisibilityTracker } from '../push/visibility';
import { onEvent } from './handler';
import type { RealtimeSocket } from './types';

/**
 * `visibility {visible}`: the tab behind this socket came into view or left it. Ephemeral: it
 * never enters the seq stream; it only decides whether a stored message is also pushed.
 */
export function registerVisibilityHandler(socket: RealtimeSocket, visibility: VisibilityTracker, log: FastifyBaseLogger): void {
  onEvent(socket, log, 'visibility', visibilityPayloadSchema, async ({ visible }, userId) => {
    await visibility.set(socket.id, userId, visible);
    return { data: { visible } };
  });
  socket.once('disconnect', () => {
    visibility.remove(socket.id, socket.data.userId).catch((error: unknown) => log.warn({ err: error }, 'visibility: could not forget a socket'));
  });
}
