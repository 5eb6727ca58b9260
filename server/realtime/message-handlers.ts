import type { FastifyBaseLogger } from 'fastify';
import { SYNC_PAGE_MAX } from '../../lib/contract/constants';
import { SEND_REFUSALS } from '../../lib/contract/socket';
import { sendPayloadSchema, syncAccountPayloadSchema, syncConversationPayloadSchema, type SendPayload } from '../../lib/contract/schemas';
import type { ConversationMessage } from '../../lib/contract';
import type { Refusal } from '../db/delivery/message-batch';
import type { MessageWriter } from '../db/delivery/message-writer';
import type { KeyedLanes } from '../db/engine/lane';
import type { Db } from '../db/engine/open-database';
import { formatAccountCursor, parseAccountCursor, syncAccount } from '../db/delivery/account-stream';
import { directPeerOf, listConversationAfter } from '../db/delivery/conversation-stream';
import { RESTARTING_MSG } from './ack';
import type { PushNotifier } from '../push/push-notifier';
import { conversationNotFound, fieldError, onEvent, refuse, type Outcome } from './handler';
import { rooms, type RealtimeSocket } from './types';

const userNotFound = () => refuse({ msg: 'User not found.' });

/** A send as the writer takes it: to a person (a conversation's is its other member). */
type StoredSend = Omit<SendPayload, 'conversation_id' | 'recipient_id'> & { recipient_id: number };
const badCursor = fieldError('cursor: Not a cursor this server gave.');

// Field errors, not `msg`: clients retry `msg` errors (transient) but give up on field errors.
const refusals: Record<Refusal, Outcome<never>> = {
  recipient: fieldError(SEND_REFUSALS.recipient_gone),
  attachment: fieldError(SEND_REFUSALS.attachment_gone),
  sender: fieldError(SEND_REFUSALS.sender_gone),
  // One line for a block (either way) and for "who can message me": nothing more is revealed.
  not_allowed: fieldError(SEND_REFUSALS.not_allowed),
  // Final like the others: the answered message will not come back into this conversation by
  // retrying, and the words are the same for an unknown id and someone else's.
  reply_to: fieldError(SEND_REFUSALS.reply_gone),
};
// `msg`: the outbox sends the message again later, with the same client_id.
const notNow = {
  busy: refuse({ msg: 'Too many messages right now, try again shortly.' }),
  closing: refuse({ msg: RESTARTING_MSG }),
};

/** `send`, `sync_conversation` and `sync_account`: messages and catch-up. */
export function registerMessageHandlers(
  socket: RealtimeSocket,
  db: Db,
  writer: MessageWriter,
  log: FastifyBaseLogger,
  syncs: KeyedLanes,
  push?: PushNotifier,
): void {
  // Checked by the writer, in the batch's transaction: the recipient (exists, active) and the
  // attachment (an upload of the sender's, or refused like a missing one: ids are capabilities).
  const store = async (message: StoredSend, userId: number): Promise<Outcome<ConversationMessage>> => {
    if (message.recipient_id === userId) return fieldError(SEND_REFUSALS.self);
    const outcome = await writer.write({
      senderId: userId,
      recipientId: message.recipient_id,
      clientId: message.client_id,
      text: message.text,
      attachmentId: message.attachment_id ?? null,
      replyToId: message.reply_to ?? null,
    });
    if ('retry' in outcome) {
      // Logged with its stack and answered as a server fault by onEvent.
      if (outcome.retry === 'failed') throw outcome.error;
      return notNow[outcome.retry];
    }
    if ('refused' in outcome) return refusals[outcome.refused];
    const { message: stored, recipientId, created } = outcome.stored;
    // A repeated client_id is a retry of a message everyone was already told about.
    if (!created) return { data: stored };
    return {
      data: stored,
      broadcast: () => {
        // The copy every member gets, by the conversation's seq.
        socket.nsp.to(rooms.inbox(recipientId)).emit('message', stored);
        // The sender's other tabs: `message_sent`, never `message`, which would count as unread.
        socket.to(rooms.inbox(userId)).emit('message_sent', stored);
        // After the ack, in the background: a push to the recipient's browsers if no tab of theirs is in view.
        push?.messageStored(stored, recipientId);
      },
    };
  };
  // Into a conversation by its id (the same send to its other member), or to a person, which begins a direct one.
  onEvent(socket, log, 'send', sendPayloadSchema, async ({ conversation_id: conversationId, recipient_id: recipientId, ...message }, userId) => {
    const to = conversationId === undefined ? recipientId! : await directPeerOf(db, userId, conversationId);
    return to === null ? conversationNotFound : store({ ...message, recipient_id: to }, userId);
  });

  // One conversation's stream by its own seqs, within the caller's window on it (catch-up, design
  // 3.5). Read-only, so answered on every socket, at any time. One page at a time per account,
  // whatever its number of sockets: twenty pages asked at once would otherwise be read in turn
  // together and answered together, one burst on the event loop.
  onEvent(socket, log, 'sync_conversation', syncConversationPayloadSchema, async ({ conversation_id: conversationId, after, limit = SYNC_PAGE_MAX }, userId) => {
    const page = await syncs.run(userId, () => listConversationAfter(db, userId, conversationId, after, limit));
    if (!page) return conversationNotFound;
    return {
      data: { conversation_id: conversationId, messages: page.messages, changes: page.changes, through: page.through, last_seq: page.end, has_more: page.hasMore, seen: page.seen },
    };
  });

  // Which of the account's conversations moved, and its own items, since its cursor (design 2.6,
  // 3.5); without one, a cursor from now. In the same lane and budget as the other syncs.
  onEvent(socket, log, 'sync_account', syncAccountPayloadSchema, async ({ cursor, limit = SYNC_PAGE_MAX }, userId) => {
    const from = cursor ? parseAccountCursor(cursor) : null;
    // The schema let only such cursors through; never read one it could not parse as "from now".
    if (cursor && !from) return badCursor;
    const page = await syncs.run(userId, () => syncAccount(db, userId, from, limit));
    if (!page) return userNotFound();
    return {
      data: { items: page.items, conversations: page.conversations, removed: page.removed, cursor: formatAccountCursor(page.cursor), has_more: page.hasMore },
    };
  });
}
