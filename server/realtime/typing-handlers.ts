import type { FastifyBaseLogger } from 'fastify';
import { typingPayload2Schema, typingPayloadSchema } from '../../lib/contract/schemas';
import { directPeerOf } from '../db/delivery/conversation-stream';
import type { Db } from '../db/engine/open-database';
import type { SignalCheck } from './can-signal';
import { conversationNotFound, fieldError, onEvent, type Outcome } from './handler';
import { protocol2, rooms, type RealtimeSocket } from './types';

/**
 * `typing`: relayed to the recipient's tabs (every node, through the adapter), never stored, never
 * in the seq stream or an unread count. The ack is the same whether it was relayed or dropped.
 * Protocol 2 names the conversation (or a person not yet written to), and its tabs are told the
 * conversation; in a group it will go to every member but the blocked (design 3.7, step 10).
 */
export function registerTypingHandlers(socket: RealtimeSocket, db: Db, mayReach: SignalCheck, log: FastifyBaseLogger): void {
  const relay = async (recipientId: number, typing: boolean, userId: number): Promise<Outcome<Record<string, never>>> => {
    if (recipientId === userId) return fieldError('user_id: You cannot type to yourself.');
    const verdict = await mayReach(userId, recipientId);
    if (!verdict) return { data: {} };
    const { conversationId } = verdict;
    return {
      data: {},
      broadcast: () => {
        socket.nsp.to(rooms.user(recipientId)).emit('typing', { user_id: userId, typing });
        // Protocol 2 places it in the conversation; before the first message there is none to place it in.
        if (conversationId !== null) protocol2(socket.nsp.to(rooms.user2(recipientId))).emit('typing', { conversation_id: conversationId, user_id: userId, typing });
      },
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
