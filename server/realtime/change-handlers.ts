import type { FastifyBaseLogger } from 'fastify';
import { editPayloadSchema, hidePayloadSchema, reactPayloadSchema, readPayloadSchema, unsendPayloadSchema } from '../../lib/contract/schemas';
import { CHANGE_REFUSALS, type ChangeRefusal, type ChangeResult, type ReadResult } from '../../lib/contract';
import type { ChangeWriter } from '../db/delivery/change-batch';
import type { ChangeOutcome, ChangeRequest, MessageWindows } from '../db/delivery/changes/plan';
import { RESTARTING_MSG } from './ack';
import type { FileStorage } from '../storage/file-storage';
import { conversationNotFound, fieldError, onEvent, refuse, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

// `msg`: not done now, and the same request may well succeed in a moment.
const NOT_NOW = {
  busy: refuse({ msg: 'Too many changes right now, try again shortly.' }),
  closing: refuse({ msg: RESTARTING_MSG }),
};

type WrittenChange = Exclude<ChangeOutcome, { refused: ChangeRefusal }>;

/** A written change, to its rooms: the shared change to every member, the item to the actor's devices, the receipt to the sender's. */
function pushChange(socket: RealtimeSocket, { shared, item, seen }: WrittenChange['pushes']): void {
  if (shared) socket.nsp.to(rooms.inboxes(shared.members)).emit('message_change', shared.change);
  if (item) socket.nsp.to(rooms.inbox(item.userId)).emit('account_item', item.item);
  if (seen) socket.nsp.to(rooms.inbox(seen.to)).emit('seen', seen.payload);
}

/**
 * Gives the request to the change writer: what it wrote, or the socket's answer when it wrote
 * nothing: a refusal (a field error, unless `refused` says otherwise), or not now (`msg`).
 */
async function writeChange(
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
 * `react`, `edit`, `unsend`, `hide` and `read`: changes to messages, each written to the streams it
 * concerns in the change batch's transaction (db/delivery/change-batch.ts; each kind's rule in
 * db/delivery/changes/), then sent live to every socket of those accounts, this one included: the
 * change by the conversation's seq to every member, or the actor's item to their devices. A
 * change to one message is answered with the change as it is pushed, or null when nothing
 * changed; a read with the unread counts.
 */
export function registerChangeHandlers(socket: RealtimeSocket, { changes, windows, storage, log }: ChangeHandlerDeps): void {
  const answer = async (request: ChangeRequest): Promise<Outcome<ChangeResult>> => {
    const written = await writeChange(changes, request);
    if ('error' in written) return written.error;
    // As it is pushed: a hide is the actor's item, the others the change every member gets.
    const { shared, item } = written.pushes;
    return {
      data: { change: request.kind === 'hide' ? (item?.item ?? null) : (shared?.change ?? null) },
      broadcast: () => {
        pushChange(socket, written.pushes);
        for (const [to, count] of written.unreadTotals) socket.nsp.to(rooms.inboxes(to)).emit('message_count', { count });
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

  // A change like the others (db/change-batch.ts), decided in the batch by the reader's member row:
  // a conversation that is not theirs is not found. A deleted account's conversation stays on the
  // other side, badge included: it can be read; a deactivated one's is not found (final, never
  // retried). Up to a message: those after it stay unread, and a read never goes back.
  onEvent(socket, log, 'read', readPayloadSchema, async ({ conversation_id: conversationId, up_to: upTo }, userId): Promise<Outcome<ReadResult>> => {
    const written = await writeChange(changes, { kind: 'read', actorId: userId, conversationId, upTo: upTo ?? null }, () => conversationNotFound);
    if ('error' in written) return written.error;
    const count = written.unreadTotals.get(userId) ?? 0;
    const unreadCount = written.conversationUnread ?? 0;
    const data = { count, unread_count: unreadCount };
    // Nothing newly read (all of it already was, or up_to is before the first unread): the other
    // tabs already show these numbers, so only the asking one is answered.
    if (written.pushes.item === null) return { data };
    return {
      data,
      broadcast: () => {
        // Every tab, this one included, so all of them show the same numbers; the read item for
        // the reader's devices, the receipt `seen` for the peer's.
        socket.nsp.to(rooms.inbox(userId)).emit('message_count', { count });
        pushChange(socket, written.pushes);
      },
    };
  });
}
