import type { FastifyBaseLogger } from 'fastify';
import { editPayloadSchema, hidePayloadSchema, reactPayloadSchema, unsendPayloadSchema } from '../../lib/contract/schemas';
import { CHANGE_REFUSALS, type ChangeResult } from '../../lib/contract';
import type { ChangeWriter } from '../db/delivery/change-batch';
import type { ChangeOutcome, ChangeRefusal, ChangeRequest, MessageWindows } from '../db/delivery/change-rules';
import { forAccount } from '../db/delivery/change-stream';
import { RESTARTING_MSG } from './ack';
import type { FileStorage } from '../storage/file-storage';
import { fieldError, onEvent, refuse, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

// `msg`: not done now, and the same request may well succeed in a moment.
const NOT_NOW = {
  busy: refuse({ msg: 'Too many changes right now, try again shortly.' }),
  closing: refuse({ msg: RESTARTING_MSG }),
};

export type WrittenChange = Exclude<ChangeOutcome, { refused: ChangeRefusal }>;

/**
 * Gives the request to the change writer: what it wrote, or the socket's answer when it wrote
 * nothing: a refusal (a field error, unless `refused` says otherwise), or not now (`msg`).
 */
export async function writeChange(
  changes: ChangeWriter,
  request: ChangeRequest,
  refused: (refusal: ChangeRefusal) => Outcome<never> = (refusal) => fieldError(CHANGE_REFUSALS[refusal]),
): Promise<WrittenChange | { error: Outcome<never> }> {
  const outcome = await changes.write(request);
  if ('retry' in outcome) {
    // Logged with its stack and answered as a server fault by onEvent.
    if (outcome.retry === 'failed') throw outcome.error;
    return { error: NOT_NOW[outcome.retry] };
  }
  if ('refused' in outcome) return { error: refused(outcome.refused) };
  return outcome;
}

export interface ChangeHandlerDeps {
  /** The group commit of changes (db/change-batch.ts). */
  changes: ChangeWriter;
  windows: MessageWindows;
  /** Where an unsent message's file is removed from. */
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/**
 * `react`, `edit`, `unsend` and `hide`: changes to a message, each written to the stream of every
 * account it concerns in the change batch's transaction (db/change-batch.ts), then sent live as
 * `message_change` to every socket of those accounts, this one included, each with its own seq.
 * The ack carries the caller's change, or null when nothing changed.
 */
export function registerChangeHandlers(socket: RealtimeSocket, { changes, windows, storage, log }: ChangeHandlerDeps): void {
  const answer = async (request: ChangeRequest): Promise<Outcome<ChangeResult>> => {
    const written = await writeChange(changes, request);
    if ('error' in written) return written.error;
    const own = written.changes.find((change) => change.userId === request.actorId) ?? null;
    return {
      data: { change: own === null ? null : forAccount(own) },
      broadcast: () => {
        for (const change of written.changes) socket.nsp.to(rooms.user(change.userId)).emit('message_change', forAccount(change));
        for (const [to, count] of written.unreadTotals) socket.nsp.to(rooms.user(to)).emit('message_count', { count });
        if (written.removedStorageKey) {
          // The row is gone, so no URL reaches the file any more; one that fails to go is logged.
          storage.remove(written.removedStorageKey).catch((error: unknown) => log.error({ err: error }, 'unsent message: upload file not removed'));
        }
      },
    };
  };

  onEvent(socket, log, 'react', reactPayloadSchema, ({ message_id: messageId, emoji, add }, actorId) => answer({ kind: 'react', actorId, messageId, emoji, add }));
  onEvent(socket, log, 'edit', editPayloadSchema, ({ message_id: messageId, text }, actorId) =>
    answer({ kind: 'edit', actorId, messageId, text, windowMs: windows.editWindowMs }),
  );
  onEvent(socket, log, 'unsend', unsendPayloadSchema, ({ message_id: messageId }, actorId) =>
    answer({ kind: 'unsend', actorId, messageId, windowMs: windows.unsendWindowMs }),
  );
  onEvent(socket, log, 'hide', hidePayloadSchema, ({ message_id: messageId }, actorId) => answer({ kind: 'hide', actorId, messageId }));
}
