import type { FastifyBaseLogger } from 'fastify';
import { MAX_REACTIONS_PER_PERSON } from '../../lib/contract/constants';
import { editPayloadSchema, hidePayloadSchema, reactPayloadSchema, unsendPayloadSchema } from '../../lib/contract/schemas';
import type { ChangeResult } from '../../lib/contract';
import { forAccount } from '../db/change-stream';
import { edit, hide, react, unsend, type ChangeOutcome, type ChangeRefusal, type MessageWindows } from '../db/message-changes';
import type { Db } from '../db/open-database';
import { CANNOT_MESSAGE } from '../db/safety-rules';
import type { FileStorage } from '../storage/file-storage';
import { fieldError, onEvent, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

// Field errors, all of them: the same request would be refused again (docs/API.md). Someone
// else's message reads exactly like a missing one.
const REFUSALS: Record<ChangeRefusal, string> = {
  not_found: 'message_id: Message not found.',
  not_yours: 'message_id: This is not your message.',
  deleted: 'message_id: This message was deleted.',
  too_late: 'message_id: It is too late to change this message.',
  not_allowed: `message_id: ${CANNOT_MESSAGE}`,
  empty: 'text: A message needs text or an attachment.',
  too_many: `emoji: At most ${MAX_REACTIONS_PER_PERSON} different reactions per message.`,
};

export interface ChangeHandlerDeps {
  db: Db;
  windows: MessageWindows;
  /** Where an unsent message's file is removed from. */
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/**
 * `react`, `edit`, `unsend` and `hide`: changes to a message, each written to the stream of every
 * account it concerns in the change's transaction (db/message-changes.ts), then sent live as
 * `message_change` to every socket of those accounts, this one included, each with its own seq.
 * The ack carries the caller's change, or null when nothing changed.
 */
export function registerChangeHandlers(socket: RealtimeSocket, { db, windows, storage, log }: ChangeHandlerDeps): void {
  const answer = (outcome: ChangeOutcome, userId: number): Outcome<ChangeResult> => {
    if ('refused' in outcome) return fieldError(REFUSALS[outcome.refused]);
    const own = outcome.changes.find((change) => change.userId === userId) ?? null;
    return {
      data: { change: own === null ? null : forAccount(own) },
      broadcast: () => {
        for (const change of outcome.changes) socket.nsp.to(rooms.user(change.userId)).emit('message_change', forAccount(change));
        for (const [to, count] of outcome.unreadTotals) socket.nsp.to(rooms.user(to)).emit('message_count', { count });
        if (outcome.removedStorageKey) {
          // The row is gone, so no URL reaches the file any more; one that fails to go is logged.
          storage.remove(outcome.removedStorageKey).catch((error: unknown) => log.error({ err: error }, 'unsent message: upload file not removed'));
        }
      },
    };
  };

  onEvent(socket, log, 'react', reactPayloadSchema, async ({ message_id: id, emoji, add }, userId) => answer(await react(db, userId, id, emoji, add), userId));
  onEvent(socket, log, 'edit', editPayloadSchema, async ({ message_id: id, text }, userId) => answer(await edit(db, userId, id, text, windows), userId));
  onEvent(socket, log, 'unsend', unsendPayloadSchema, async ({ message_id: id }, userId) => answer(await unsend(db, userId, id, windows), userId));
  onEvent(socket, log, 'hide', hidePayloadSchema, async ({ message_id: id }, userId) => answer(await hide(db, userId, id), userId));
}
