import type { FastifyBaseLogger } from 'fastify';
import { typingPayloadSchema } from '../../lib/contract/schemas';
import { directPeerOf } from '../db/delivery/conversation-stream';
import type { Db } from '../db/engine/open-database';
import type { SignalCheck } from './can-signal';
import { conversationNotFound, fieldError, onEvent, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

/**
 * `typing`: relayed to the other member's tabs (every node, through the adapter), never stored,
 * never in the seq stream or an unread count. The ack is the same whether it was relayed or
 * dropped. It names the conversation (or a person not yet written to), and the tabs are told the
 * conversation; in a group it will go to every member but the blocked (design 3.7, step 10).
 */
export function registerTypingHandlers(socket: RealtimeSocket, db: Db, mayReach: SignalCheck, log: FastifyBaseLogger): void {
  onEvent(socket, log, 'typing', typingPayloadSchema, async ({ conversation_id: named, user_id: person, typing }, userId): Promise<Outcome<Record<string, never>>> => {
    const recipientId = named === undefined ? person! : await directPeerOf(db, userId, named);
    if (recipientId === null) return conversationNotFound;
    if (recipientId === userId) return fieldError('user_id: You cannot type to yourself.');
    const verdict = await mayReach(userId, recipientId);
    // Before the first message there is no conversation to place it in, so nothing is relayed.
    if (!verdict || verdict.conversationId === null) return { data: {} };
    const { conversationId } = verdict;
    return {
      data: {},
      broadcast: () => socket.nsp.to(rooms.inbox(recipientId)).emit('typing', { conversation_id: conversationId, user_id: userId, typing }),
    };
  });
}
