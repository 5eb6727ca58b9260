// Threads by person: history in pages (newest first from the server, oldest first for display),
// live messages, and what the user sends: shown at once as "sending" while it waits in the
// persistent outbox (lib/outbox), then "sent", or "failed" if the server refused it.
import { create } from 'zustand';
import { listMessages } from '@/lib/api/conversations';
import { errorBodyMessage, errorMessage } from '@/lib/api/errors';
import type { Attachment, ErrorBody, MessagePayload } from '@/lib/contract';
import { createOutbox, type OutboxEntry } from '@/lib/outbox/outbox';
import { appOutboxStorage } from '@/lib/outbox/outbox-storage';
import { isReady, onConnect, sendMessage as emitSend } from '@/lib/socket/socket-service';
import { newClientId } from '@/lib/utils/client-id';
import { useConversationsStore } from './conversations-store';
import { useCounterStore } from './counter-store';
import { useSessionStore } from './session-store';
import { appendLocal, mergeMessages, messageKey, settleLocal, updateLocal, type ThreadMessage } from './thread-messages';
import { describeProblem, validateMessage, type MessageProblem } from './message-validation';

export type { ThreadMessage, MessageProblem };
export type ThreadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface Thread {
  /** Oldest first; messages not stored yet come last. */
  messages: ThreadMessage[];
  /** Cursor of the next older page; null when the beginning is reached. */
  nextCursor: string | null;
  /** 'idle': history not loaded (only messages sent or received since). */
  status: ThreadStatus;
  loadingOlder: boolean;
  error: string | null;
}

export type SendResult =
  | { status: 'sent'; message: MessagePayload }
  /** Refused before sending; nothing was added to the thread. `error` is an English sentence. */
  | { status: 'invalid'; problem: MessageProblem; error: string }
  /** Refused by the server (or the session ended first); it stays in the thread as failed. */
  | { status: 'failed'; clientId: string; error: string };

export interface SendOptions {
  /** An uploaded file (POST /api/uploads) to attach; text may then be empty. */
  attachment?: Attachment | null;
}

export interface ThreadsState {
  threads: Record<number, Thread>;
}

export interface ThreadsActions {
  /** Loads the newest page unless already loaded (or loading). */
  loadThread: (peerId: number) => Promise<void>;
  loadOlder: (peerId: number) => Promise<void>;
  /**
   * Puts the message in the outbox, which keeps it (across reloads) and retries it until the
   * server acknowledges it. Resolves once it is sent or refused.
   */
  sendMessage: (peerId: number, text: string, options?: SendOptions) => Promise<SendResult>;
  /** Sends a refused message again with the same client id, or hurries one still waiting. */
  retryMessage: (clientId: string) => Promise<SendResult>;
  /**
   * Starts the signed-in user's outbox: what an earlier session left unsent reappears in its
   * threads as sending, and goes out on every (re)connect.
   */
  startOutbox: (userId: number, options?: { onSent?: (message: MessagePayload) => void }) => Promise<void>;
  /** A live message (`message`, `message_sent`) for the thread with `peerId`, if one is held. */
  receiveMessage: (peerId: number, message: MessagePayload) => void;
  /**
   * Many messages at once (a sync page), each for the thread with its peer: merged into the
   * threads held in one store update, so a page of any size costs one merge per thread.
   */
  receiveMessages: (messages: readonly { peerId: number; message: MessagePayload }[]) => void;
}

export type ThreadsStore = ThreadsState & ThreadsActions;

const emptyThread: Thread = { messages: [], nextCursor: null, status: 'idle', loadingOlder: false, error: null };
const initialThreadsState: ThreadsState = { threads: {} };

// Bumped on reset (sign-out), so answers to requests made before it are dropped.
let generation = 0;
// Set up with the store; module-level so resetThreadStore can stop the outbox.
let outbox: ReturnType<typeof createOutbox>;
let abandonWaiting: () => void = () => {};
let stopOutbox: () => void = () => {};
let onStored: (message: MessagePayload) => void = () => {};

function currentUserId(): number {
  return useSessionStore.getState().user?.id ?? useCounterStore.getState().socketUserId;
}

export const useThreadStore = create<ThreadsStore>()((set, get) => {
  const thread = (peerId: number): Thread => get().threads[peerId] ?? emptyThread;
  // Callers awaiting a message's fate, by message key.
  const waiting = new Map<string, Array<(result: SendResult) => void>>();

  function whenSettled(key: string): Promise<SendResult> {
    return new Promise((resolve) => waiting.set(key, [...(waiting.get(key) ?? []), resolve]));
  }

  function settle(key: string, result: SendResult): void {
    const resolvers = waiting.get(key) ?? [];
    waiting.delete(key);
    for (const resolve of resolvers) resolve(result);
  }

  function update(peerId: number, change: (current: Thread) => Partial<Thread>): void {
    set((state) => {
      const current = state.threads[peerId] ?? emptyThread;
      return { threads: { ...state.threads, [peerId]: { ...current, ...change(current) } } };
    });
  }

  function sent(entry: OutboxEntry, message: MessagePayload): void {
    const key = messageKey(entry);
    update(entry.recipient_id, (current) => ({ messages: settleLocal(current.messages, key, message) }));
    useConversationsStore.getState().recordOutgoing(message);
    onStored(message);
    settle(key, { status: 'sent', message });
  }

  function refused(entry: OutboxEntry, body: ErrorBody): void {
    const key = messageKey(entry);
    const error = errorBodyMessage(body) ?? errorMessage(body);
    update(entry.recipient_id, (current) => ({ messages: updateLocal(current.messages, key, { status: 'failed', error }) }));
    settle(key, { status: 'failed', clientId: entry.client_id, error });
  }

  outbox = createOutbox({ storage: appOutboxStorage, send: emitSend, isReady, onSent: sent, onRefused: refused });

  function enqueue(local: ThreadMessage): Promise<SendResult> {
    const result = whenSettled(messageKey(local));
    void outbox.enqueue({
      client_id: local.client_id,
      sender_id: local.sender_id,
      recipient_id: local.recipient_id,
      text: local.text,
      attachment: local.attachment,
      created_at: local.created_at,
    });
    return result;
  }

  abandonWaiting = () => {
    for (const key of [...waiting.keys()]) {
      const [, clientId = ''] = key.split(':');
      settle(key, { status: 'failed', clientId, error: 'Signed out before it was sent; it goes out at your next sign-in.' });
    }
  };

  async function loadNewest(peerId: number): Promise<void> {
    const started = generation;
    update(peerId, () => ({ status: 'loading', error: null }));
    try {
      const page = await listMessages(peerId);
      if (started !== generation) return;
      update(peerId, (current) => ({
        messages: mergeMessages(current.messages, page.results),
        nextCursor: page.next_cursor,
        status: 'ready',
      }));
    } catch (error) {
      if (started !== generation) return;
      update(peerId, () => ({ status: 'error', error: errorMessage(error) }));
    }
  }

  return {
    ...initialThreadsState,

    async loadThread(peerId) {
      const { status } = thread(peerId);
      if (status === 'ready' || status === 'loading') return;
      await loadNewest(peerId);
    },

    async loadOlder(peerId) {
      const { status, nextCursor, loadingOlder } = thread(peerId);
      if (status !== 'ready' || !nextCursor || loadingOlder) return;
      const started = generation;
      update(peerId, () => ({ loadingOlder: true, error: null }));
      try {
        const page = await listMessages(peerId, nextCursor);
        if (started !== generation) return;
        update(peerId, (current) => ({
          messages: mergeMessages(current.messages, page.results),
          nextCursor: page.next_cursor,
          loadingOlder: false,
        }));
      } catch (error) {
        if (started !== generation) return;
        update(peerId, () => ({ loadingOlder: false, error: errorMessage(error) }));
      }
    },

    async sendMessage(peerId, rawText, { attachment = null } = {}) {
      const text = rawText.trim();
      const problem = validateMessage(text, attachment !== null);
      if (problem) return { status: 'invalid', problem, error: describeProblem(problem) };
      const local: ThreadMessage = {
        id: null,
        seq: null,
        client_id: newClientId(),
        sender_id: currentUserId(),
        recipient_id: peerId,
        text,
        attachment,
        created_at: new Date().toISOString(),
        read_at: null,
        status: 'sending',
        error: null,
      };
      update(peerId, (current) => ({ messages: appendLocal(current.messages, local) }));
      return enqueue(local);
    },

    async retryMessage(clientId) {
      for (const [peer, { messages }] of Object.entries(get().threads)) {
        const local = messages.find((message) => message.client_id === clientId && message.id === null);
        if (!local) continue;
        const key = messageKey(local);
        if (local.status === 'sending') {
          // Still in the outbox: try now rather than at the end of the backoff, and wait with it.
          const result = whenSettled(key);
          outbox.flush();
          return result;
        }
        update(Number(peer), (current) => ({ messages: updateLocal(current.messages, key, { status: 'sending', error: null }) }));
        return enqueue(local);
      }
      return { status: 'failed', clientId, error: 'No such message to retry.' };
    },

    async startOutbox(userId, { onSent = () => {} } = {}) {
      stopOutbox();
      onStored = onSent;
      const stopFlushing = onConnect(() => outbox.flush());
      stopOutbox = () => {
        stopFlushing();
        outbox.stop();
        abandonWaiting();
      };
      const stored = await outbox.start(userId);
      for (const entry of stored) {
        const local: ThreadMessage = { ...entry, id: null, seq: null, read_at: null, status: 'sending', error: null };
        update(entry.recipient_id, (current) => ({ messages: appendLocal(current.messages, local) }));
      }
    },

    receiveMessage(peerId, message) {
      if (!get().threads[peerId]) return;
      update(peerId, (current) => ({ messages: mergeMessages(current.messages, [message]) }));
    },

    receiveMessages(messages) {
      const held = get().threads;
      const byPeer = new Map<number, MessagePayload[]>();
      for (const { peerId, message } of messages) {
        if (!held[peerId]) continue;
        const list = byPeer.get(peerId);
        if (list) list.push(message);
        else byPeer.set(peerId, [message]);
      }
      if (byPeer.size === 0) return;
      set((state) => {
        const threads = { ...state.threads };
        for (const [peerId, incoming] of byPeer) {
          const current = threads[peerId];
          if (current) threads[peerId] = { ...current, messages: mergeMessages(current.messages, incoming) };
        }
        return { threads };
      });
    },
  };
});

const noMessages: ThreadMessage[] = [];

export const useThread = (peerId: number) => useThreadStore((state) => state.threads[peerId]);
/** Oldest first, ready for a virtualised list; the same array until the thread changes. */
export const useThreadMessages = (peerId: number) =>
  useThreadStore((state) => state.threads[peerId]?.messages ?? noMessages);

/** Tests and sign-out: back to the initial values; answers to earlier requests are dropped. */
export function resetThreadStore(): void {
  generation += 1;
  // The outbox stops sending; what it holds stays stored for the user's next session.
  stopOutbox();
  useThreadStore.setState(initialThreadsState);
}
