// Sending, for one signed-in user: the composer's message is shown at once as "sending" in its
// thread, waits in the persistent outbox (lib/outbox) until the server acknowledges it, then
// becomes "sent", or "failed" if the server refused it (for good: send-refusal.ts says why).
// Created and stopped by the messaging session; the stores only hold what it reports.
import { i18n } from '@/lib/i18n/i18n';
import type { Attachment, ConversationMessage, ErrorBody, MessagePayload, ReplySummary } from '@/lib/contract';
import { createOutbox, type OutboxEntry } from '@/lib/outbox/outbox';
import type { OutboxStorage } from '@/lib/outbox/outbox-storage';
import { socketService } from '@/lib/socket/socket-service';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useDirectConversations } from '@/lib/stores/direct-conversations';
import { heldMessage } from '@/lib/stores/held-messages';
import { usePeopleStore } from '@/lib/stores/people-store';
import { describeProblem, validateMessage, type MessageProblem } from '@/lib/stores/message-validation';
import { messageKey, UNCHANGED, type ThreadMessage } from '@/lib/stores/thread-messages';
import { findLocal, threadPositions, useThreadStore } from '@/lib/stores/thread-store';
import { newClientId } from '@/lib/utils/client-id';
import { refusalText, sendRefusal } from './send-refusal';


export type SendResult =
  | { status: 'sent'; message: MessagePayload }
  /** Refused before sending; nothing was added to the thread. `error` is an English sentence. */
  | { status: 'invalid'; problem: MessageProblem; error: string }
  /** Refused by the server (or the session ended first); it stays in the thread as failed. `error` is for the reader. */
  | { status: 'failed'; clientId: string; error: string };

export interface SendOptions {
  /** An uploaded file (POST /api/uploads) to attach; text may then be empty. */
  attachment?: Attachment | null;
  /** The message it answers (the composer's quote); the server checks it is of this conversation. */
  replyTo?: ReplySummary | null;
}

export interface OutboxSender {
  /**
   * Puts the message in the outbox, which keeps it (across reloads) and retries it until the
   * server acknowledges it. Resolves once it is sent or refused.
   */
  send(peerId: number, text: string, options?: SendOptions): Promise<SendResult>;
  /** Sends a refused message again with the same client id, or hurries one still waiting. */
  retry(clientId: string): Promise<SendResult>;
  /** Tries the queue now (every connection, once its init is acknowledged). */
  flush(): void;
  /**
   * Stops sending; what is stored stays for the user's next session, and callers still waiting
   * hear that it did not go out now.
   */
  stop(): void;
}

export interface OutboxSenderOptions {
  userId: number;
  storage: OutboxStorage;
  /** The server stored one of the user's messages (catch-up notes its seq in its conversation). */
  onStored?: (message: ConversationMessage) => void;
}

const SIGNED_OUT = 'Signed out before it was sent; it goes out at your next sign-in.';

/** Starts the user's outbox: what an earlier session left unsent reappears as "sending". */
export function startOutboxSender({ userId, storage, onStored = () => {} }: OutboxSenderOptions): OutboxSender {
  const threads = () => useThreadStore.getState();
  // Callers awaiting a message's fate, by message key.
  const waiting = new Map<string, Array<(result: SendResult) => void>>();
  let stopped = false;

  function whenSettled(key: string): Promise<SendResult> {
    return new Promise((resolve) => waiting.set(key, [...(waiting.get(key) ?? []), resolve]));
  }

  function settle(key: string, result: SendResult): void {
    const resolvers = waiting.get(key) ?? [];
    waiting.delete(key);
    for (const resolve of resolvers) resolve(result);
  }

  function sent(entry: OutboxEntry, stored: ConversationMessage): void {
    const key = messageKey(entry);
    const peerId = entry.recipient_id;
    // The ack names the conversation (the first message began it): the thread holds it from now on.
    useDirectConversations.getState().learn(stored.conversation_id, peerId);
    threads().bindConversation(peerId, stored.conversation_id);
    const message = heldMessage(stored, peerId, userId, threadPositions(peerId));
    threads().settleLocal(peerId, key, message);
    useConversationsStore.getState().recordOutgoing(message);
    onStored(stored);
    settle(key, { status: 'sent', message });
  }

  function refused(entry: OutboxEntry, body: ErrorBody): void {
    const key = messageKey(entry);
    const refusal = sendRefusal(body);
    const error = refusalText(refusal, i18n.t);
    threads().updateLocal(entry.recipient_id, key, { status: 'failed', error, refusal });
    settle(key, { status: 'failed', clientId: entry.client_id, error });
    // Refused for who they are now (blocked, their setting, gone): their profile is read again,
    // so the thread says so in place of the message box.
    if ('non_field_errors' in body && body.non_field_errors.some((line) => line.startsWith('recipient_id:'))) void usePeopleStore.getState().loadProfile(entry.recipient_id);
  }

  const outbox = createOutbox({
    storage,
    send: (payload) => socketService.request('send', payload),
    isReady: socketService.isReady,
    onSent: sent,
    onRefused: refused,
  });

  function enqueue(local: ThreadMessage): Promise<SendResult> {
    const result = whenSettled(messageKey(local));
    void outbox.enqueue({
      client_id: local.client_id,
      sender_id: local.sender_id,
      recipient_id: local.recipient_id,
      text: local.text,
      attachment: local.attachment,
      reply_to: local.reply_to ?? null,
      created_at: local.created_at,
    });
    return result;
  }

  void outbox.start(userId).then((stored) => {
    if (stopped) return;
    for (const entry of stored) {
      threads().addLocal({ ...entry, reply_to: entry.reply_to ?? null, ...UNCHANGED, id: null, seq: null, read_at: null, status: 'sending', error: null });
    }
  });

  return {
    async send(peerId, rawText, { attachment = null, replyTo = null } = {}) {
      const text = rawText.trim();
      const problem = validateMessage(text, attachment !== null);
      if (problem) return { status: 'invalid', problem, error: describeProblem(problem) };
      const local: ThreadMessage = {
        id: null,
        seq: null,
        client_id: newClientId(),
        sender_id: userId,
        recipient_id: peerId,
        text,
        attachment,
        reply_to: replyTo,
        created_at: new Date().toISOString(),
        read_at: null,
        ...UNCHANGED,
        status: 'sending',
        error: null,
      };
      threads().addLocal(local);
      return enqueue(local);
    },

    async retry(clientId) {
      const local = findLocal(threads(), clientId);
      if (!local) return { status: 'failed', clientId, error: 'No such message to retry.' };
      const key = messageKey(local);
      if (local.status === 'sending') {
        // Still in the outbox: try now rather than at the end of the backoff, and wait with it.
        const result = whenSettled(key);
        outbox.flush();
        return result;
      }
      threads().updateLocal(local.recipient_id, key, { status: 'sending', error: null });
      return enqueue(local);
    },

    flush: () => outbox.flush(),

    stop() {
      stopped = true;
      outbox.stop();
      for (const key of [...waiting.keys()]) {
        const [, clientId = ''] = key.split(':');
        settle(key, { status: 'failed', clientId, error: SIGNED_OUT });
      }
    },
  };
}
