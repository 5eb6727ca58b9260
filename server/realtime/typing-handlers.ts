import type { FastifyBaseLogger } from 'fastify';
import { typingPayloadSchema } from '../../lib/contract/schemas';
import type { SignalCheck } from './can-signal';
import { fieldError, onEvent } from './handler';
import { rooms, type RealtimeSocket } from './types';

/**
 * `typing`: relayed to the recipient's tabs (every node, through the adapter), never stored, never
 * in the seq stream or an unread count. The ack is the same whether it was relayed or dropped.
 */
export function registerTypingHandlers(socket: RealtimeSocket, mayReach: SignalCheck, log: FastifyBaseLogger): void {
  onEvent(socket, log, 'typing', typingPayloadSchema, async ({ user_id: recipientId, typing }, userId) => {
    if (recipientId === userId) return fieldError('user_id: You cannot type to yourself.');
    if (!(await mayReach(userId, recipientId))) return { data: {} };
    return {
      data: {},
      broadcast: () => void socket.nsp.to(rooms.user(recipientId)).emit('typing', { user_id: userId, typing }),
    };
  });
}
