import type { FastifyBaseLogger } from 'fastify';
import { typingPayload2Schema, typingPayloadSchema } from '../../lib/contract/schemas';
import { directPeerOf } from '../db/delivery/conversation-stream';
import type { Db } from '../db/engine/open-database';
import type { SignalCheck } from './can-signal';
import { conversationNotFound, fieldError, onEvent, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

/**
 * `typing`: relayed to the recipient's tabs (every node, through the adapter), never stored, never
 * in the seq stream or an unread count. The ack is the same whether it was relayed or dropped.
 * Protocol 2 names the conversation (or a person not yet written to); its relay by conversation
 * comes with groups, so for now it reaches the other member's protocol 1 tabs as protocol 1's does.
 */
export function registerTypingHandlers(socket: RealtimeSocket, db: Db, mayReach: SignalCheck, log: FastifyBaseLogger): void {
  const relay = async (recipientId: number, typing: boolean, userId: number): Promise<Outcome<Record<string, never>>> => {
    if (recipientId === userId) return fieldError('user_id: You cannot type to yourself.');
    if (!(await mayReach(userId, recipientId))) return { data: {} };
    return {
      data: {},
      broadcast: () => void socket.nsp.to(rooms.user(recipientId)).emit('typing', { user_id: userId, typing }),
    };
  };
  if (socket.data.protocol === 2) {
    onEvent(socket, log, 'typing', typingPayload2Schema, async ({ conversation_id: conversationId, user_id: recipientId, typing }, userId) => {
      const to = conversationId === undefined ? recipientId! : await directPeerOf(db, userId, conversationId);
      return to === null ? conversationNotFound : relay(to, typing, userId);
    });
  } else {
    onEvent(socket, log, 'typing', typingPayloadSchema, ({ user_id: recipientId, typing }, userId) => relay(recipientId, typing, userId));
  }
}
