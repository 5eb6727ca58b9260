// Threads by person: history in pages (newest first from the server, oldest first for display),
// live messages, and an outbox: a message shows at once as "sending", then "sent" or "failed".
import { create } from 'zustand';
import { listMessages } from '@/lib/api/conversations';
import { errorBodyMessage, errorMessage } from '@/lib/api/errors';
import type { Attachment, MessagePayload } from '@/lib/contract';
import { sendMessage as emitSend } from '@/lib/socket/socket-service';
import { newClientId } from '@/lib/utils/client-id';
import { useConversationsStore } from './conversations-store';
import { useCounterStore } from './counter-store';
import { useSessionStore } from './session-store';
import { appendLocal, mergeMessages, mergeNewestPage, messageKey, settleLocal, updateLocal, type ThreadMessage } from './thread-messages';
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
  /** The message stays in the thread as failed, for retryMessage(clientId). */
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
  /** Reads the newest page again and merges it (after a reconnect). */
  refreshThread: (peerId: number) => Promise<void>;
  loadOlder: (peerId: number) => Promise<void>;
  sendMessage: (peerId: number, text: string, options?: SendOptions) => Promise<SendResult>;
  /** Sends a failed message again with the same client id, so the server cannot store it twice. */
  retryMessage: (clientId: string) => Promise<SendResult>;
  /** A live message (`message`, `message_sent`) for the thread with `peerId`, if one is held. */
  receiveMessage: (peerId: number, message: MessagePayload) => void;
  /**
   * Forgets the history of every thread but `keep`'s: after a reconnect they may have missed
   * messages, and reload when opened. Messages not stored yet are kept.
   */
  forgetThreadsExcept: (keep: number | null) => void;
}

export type ThreadsStore = ThreadsState & ThreadsActions;

const emptyThread: Thread = { messages: [], nextCursor: null, status: 'idle', loadingOlder: false, error: null };
const initialThreadsState: ThreadsState = { threads: {} };

// Bumped on reset (sign-out), so answers to requests made before it are dropped.
let generation = 0;

function currentUserId(): number {
  return useSessionStore.getState().user?.id ?? useCounterStore.getState().socketUserId;
}

export const useThreadStore = create<ThreadsStore>()((set, get) => {
  const thread = (peerId: number): Thread => get().threads[peerId] ?? emptyThread;
  // Deliveries awaiting their ack, by message key: a retry during one joins it.
  const inFlight = new Map<string, Promise<SendResult>>();

  function update(peerId: number, change: (current: Thread) => Partial<Thread>): void {
    set((state) => {
      const current = state.threads[peerId] ?? emptyThread;
      return { threads: { ...state.threads, [peerId]: { ...current, ...change(current) } } };
    });
  }

  function deliver(peerId: number, local: ThreadMessage): Promise<SendResult> {
    const key = messageKey(local);
    const pending = inFlight.get(key) ?? emit(peerId, local).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
    return pending;
  }

  async function emit(peerId: number, local: ThreadMessage): Promise<SendResult> {
    const started = generation;
    const key = messageKey(local);
    const ack = await emitSend({
      client_id: local.client_id,
      recipient_id: peerId,
      text: local.text,
      attachment_id: local.attachment?.id ?? null,
    });
    if ('data' in ack) {
      if (started === generation) {
        update(peerId, (current) => ({ messages: settleLocal(current.messages, key, ack.data) }));
        useConversationsStore.getState().recordOutgoing(ack.data);
      }
      return { status: 'sent', message: ack.data };
    }
    const error = errorBodyMessage(ack.error) ?? errorMessage(ack.error);
    if (started === generation) {
      update(peerId, (current) => ({ messages: updateLocal(current.messages, key, { status: 'failed', error }) }));
    }
    return { status: 'failed', clientId: local.client_id, error };
  }

  async function loadNewest(peerId: number, refresh: boolean): Promise<void> {
    const started = generation;
    if (!refresh) update(peerId, () => ({ status: 'loading', error: null }));
    try {
      const page = await listMessages(peerId);
      if (started !== generation) return;
      update(peerId, (current) => {
        if (!refresh) {
          return { messages: mergeMessages(current.messages, page.results), nextCursor: page.next_cursor, status: 'ready' };
        }
        const merged = mergeNewestPage(current.messages, page.results, page.next_cursor !== null);
        return { messages: merged.messages, nextCursor: merged.restarted ? page.next_cursor : current.nextCursor };
      });
    } catch (error) {
      if (started !== generation) return;
      update(peerId, () => (refresh ? { error: errorMessage(error) } : { status: 'error', error: errorMessage(error) }));
    }
  }

  return {
    ...initialThreadsState,

    async loadThread(peerId) {
      const { status } = thread(peerId);
      if (status === 'ready' || status === 'loading') return;
      await loadNewest(peerId, false);
    },

    async refreshThread(peerId) {
      if (thread(peerId).status !== 'ready') return;
      await loadNewest(peerId, true);
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
      return deliver(peerId, local);
    },

    async retryMessage(clientId) {
      for (const [peer, { messages }] of Object.entries(get().threads)) {
        const failed = messages.find((message) => message.client_id === clientId && message.id === null);
        if (!failed) continue;
        const peerId = Number(peer);
        // Already on its way: join that delivery rather than race it.
        if (failed.status !== 'failed') return deliver(peerId, failed);
        update(peerId, (current) => ({
          messages: updateLocal(current.messages, messageKey(failed), { status: 'sending', error: null }),
        }));
        return deliver(peerId, failed);
      }
      return { status: 'failed', clientId, error: 'No such message to retry.' };
    },

    receiveMessage(peerId, message) {
      if (!get().threads[peerId]) return;
      update(peerId, (current) => ({ messages: mergeMessages(current.messages, [message]) }));
    },

    forgetThreadsExcept(keep) {
      set((state) => {
        const threads: Record<number, Thread> = {};
        for (const [peer, current] of Object.entries(state.threads)) {
          const peerId = Number(peer);
          const unsent = current.messages.filter((message) => message.id === null);
          if (peerId === keep) threads[peerId] = current;
          else if (unsent.length > 0) threads[peerId] = { ...emptyThread, messages: unsent };
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
  useThreadStore.setState(initialThreadsState);
}
