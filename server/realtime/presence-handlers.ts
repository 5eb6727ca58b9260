import type { FastifyBaseLogger } from 'fastify';
import { presenceSubscribePayloadSchema } from '../../lib/contract/schemas';
import { onEvent } from './handler';
import type { Presence } from './presence/presence';
import type { RealtimeSocket } from './types';

/**
 * `presence_subscribe`: this socket follows the presence of those listed (replacing its previous
 * list). Anyone the caller may not see is left out of the answer without a word, exactly as if
 * they had hidden their presence: the event is no way to learn who exists or who talks to whom.
 */
export function registerPresenceHandlers(socket: RealtimeSocket, presence: Presence, log: FastifyBaseLogger): void {
  onEvent(socket, log, 'presence_subscribe', presenceSubscribePayloadSchema, async ({ user_ids }) => ({
    data: { presence: await presence.subscribe(socket, user_ids) },
  }));
}
