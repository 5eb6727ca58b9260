import type { FastifyBaseLogger } from 'fastify';
import { SYNC_PAGE_MAX } from '../../lib/contract/constants';
import { SEND_REFUSALS } from '../../lib/contract/socket';
import { sendPayload2Schema, sendPayloadSchema, syncAccountPayloadSchema, syncConversationPayloadSchema, syncPayloadSchema, type SendPayload } from '../../lib/contract/schemas';
import type { ConversationMessage, MessagePayload } from '../../lib/contract';
import type { Refusal } from '../db/delivery/message-batch';
import type { MessageWriter } from '../db/delivery/message-writer';
import type { KeyedLanes } from '../db/engine/lane';
import type { Db } from '../db/engine/open-database';
import { formatAccountCursor, parseAccountCursor, syncAccount } from '../db/delivery/account-stream';
import { directPeerOf, listConversationAfter } from '../db/delivery/conversation-stream';
import { listStreamAfter } from '../db/delivery/stream';
import { RESTARTING_MSG } from './ack';
import type { PushNotifier } from '../push/push-notifier';
import { conversationNotFound, fieldError, onEvent, refuse, type Outcome } from './handler';
import { protocol2, rooms, type RealtimeSocket } from './types';

const userNotFound = () => refuse({ msg: 'User not found.' });
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

/** `send`, `sync`, `sync_conversation` and `sync_account`: direct messages and catch-up. */
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
  const store = async (payload: SendPayload, userId: number): Promise<Outcome<MessagePayload | ConversationMessage>> => {
    if (payload.recipient_id === userId) return fieldError(SEND_REFUSALS.self);
    const outcome = await writer.write({
      senderId: userId,
      recipientId: payload.recipient_id,
      clientId: payload.client_id,
      text: payload.text,
      attachmentId: payload.attachment_id ?? null,
      replyToId: payload.reply_to ?? null,
    });
    if ('retry' in outcome) {
      // Logged with its stack and answered as a server fault by onEvent.
      if (outcome.retry === 'failed') throw outcome.error;
      return notNow[outcome.retry];
    }
    if ('refused' in outcome) return refusals[outcome.refused];
    const { message, forRecipient, conversation, created } = outcome.stored;
    // The sender's own copy in its protocol's shape: protocol 2's places it in the conversation's stream.
    const own = socket.data.protocol === 2 ? conversation : message;
    // A repeated client_id is a retry of a message everyone was already told about.
    if (!created) return { data: own };
    return {
      data: own,
      broadcast: () => {
        // Each protocol's tabs their shape: protocol 2's the copy every member gets, by the conversation's seq.
        socket.nsp.to(rooms.user(message.recipient_id)).emit('message', forRecipient);
        protocol2(socket.nsp.to(rooms.user2(message.recipient_id))).emit('message', conversation);
        // The sender's other tabs: `message_sent`, never `message`, which would count as unread.
        socket.to(rooms.user(userId)).emit('message_sent', message);
        protocol2(socket.to(rooms.user2(userId))).emit('message_sent', conversation);
        // After the ack, in the background: a push to the recipient's browsers if no tab of theirs is in view.
        push?.messageStored(forRecipient);
      },
    };
  };
  // Protocol 2 names the conversation (or, to begin a direct one, the person): by conversation,
  // the same send to its other member.
  if (socket.data.protocol === 2) {
    onEvent(socket, log, 'send', sendPayload2Schema, async ({ conversation_id: conversationId, recipient_id: recipientId, ...message }, userId) => {
      const to = conversationId === undefined ? recipientId! : await directPeerOf(db, userId, conversationId);
      return to === null ? conversationNotFound : store({ ...message, recipient_id: to }, userId);
    });
  } else {
    onEvent(socket, log, 'send', sendPayloadSchema, store);
  }

  // Read-only, so safe at any time; the seq read first makes last_seq a cursor that misses nothing.
  // One page at a time per account, whatever its number of sockets: twenty pages asked at once
  // would otherwise be read in turn together and answered together, one burst on the event loop.
  onEvent(socket, log, 'sync', syncPayloadSchema, async ({ after, limit = SYNC_PAGE_MAX }, userId) => {
    const page = await syncs.run(userId, () => listStreamAfter(db, userId, after, limit));
    if (!page) return userNotFound();
    return {
      data: { messages: page.messages, changes: page.changes, through: page.through, last_seq: page.lastSeq, has_more: page.hasMore },
    };
  });

  // One conversation's stream by its own seqs, within the caller's window on it (protocol 2's
  // catch-up, design 3.5). A question, not a push, so it is answered on every socket; in the
  // account's one lane of pages, as `sync` is.
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
