// Threads by person: history in pages (newest first from the server, oldest first for display),
// live messages, and the user's own messages not stored yet ("sending", then "sent" or
// "failed"). State and actions only: the outbox that sends them lives in the messaging session
// (lib/realtime/outbox-sender.ts), which reports here.
import { create } from 'zustand';
import { listMessages } from '@/lib/api/conversations';
import { errorKind, userMessage, type ErrorKind } from '@/lib/api/user-message';
import type { MessageChange, MessagePayload } from '@/lib/contract';
import { applyToThread } from './message-changes';
import { appendLocal, mergeMessages, settleLocal, updateLocal, type ThreadMessage } from './thread-messages';

export type { ThreadMessage };
export type ThreadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface Thread {
  /** Oldest first; messages not stored yet come last. */
  messages: ThreadMessage[];
  /** Cursor of the next older page; null when the beginning is reached. */
  nextCursor: string | null;
  /** 'idle': history not loaded (only messages sent or received since). */
  status: ThreadStatus;
  loadingOlder: boolean;
  /** What went wrong with the last load, as a sentence for the reader; null when nothing did. */
  error: string | null;
  errorKind: ErrorKind | null;
}

export interface ThreadsState {
  threads: Record<number, Thread>;
}

export interface ThreadsActions {
  /** Loads the newest page unless already loaded (or loading). */
  loadThread: (peerId: number) => Promise<void>;
  loadOlder: (peerId: number) => Promise<void>;
  /** A message of the user's not stored yet, shown at the end of its thread. */
  addLocal: (message: ThreadMessage) => void;
  /** Changes the status (and error) of a message not stored yet, by its message key. */
  updateLocal: (peerId: number, key: string, patch: Partial<Pick<ThreadMessage, 'status' | 'error'>>) => void;
  /** The server stored a local message: the stored copy takes its place. */
  settleLocal: (peerId: number, key: string, stored: MessagePayload) => void;
  /** A live message (`message`, `message_sent`) for the thread with `peerId`, if one is held. */
  receiveMessage: (peerId: number, message: MessagePayload) => void;
  /**
   * Many messages at once (a sync page), each for the thread with its peer: merged into the
   * threads held in one store update, so a page of any size costs one merge per thread.
   */
  receiveMessages: (messages: readonly { peerId: number; message: MessagePayload }[]) => void;
  /** Changes to messages (live or from a sync, in seq order), each to the thread of its conversation if held. */
  applyChanges: (changes: readonly MessageChange[]) => void;
  /** The conversation was read (here or on another device): its incoming messages are read. */
  markIncomingRead: (peerId: number, readAt: string) => void;
  /** Sign-out: every thread forgotten; answers to requests made before are dropped. */
  reset: () => void;
}

export type ThreadsStore = ThreadsState & ThreadsActions;

const emptyThread: Thread = { messages: [], nextCursor: null, status: 'idle', loadingOlder: false, error: null, errorKind: null };

export const useThreadStore = create<ThreadsStore>()((set, get) => {
  // Bumped by reset, so answers to requests made before it are dropped.
  let generation = 0;
  const thread = (peerId: number): Thread => get().threads[peerId] ?? emptyThread;

  function update(peerId: number, change: (current: Thread) => Partial<Thread>): void {
    set((state) => {
      const current = state.threads[peerId] ?? emptyThread;
      return { threads: { ...state.threads, [peerId]: { ...current, ...change(current) } } };
    });
  }

  async function loadPage(peerId: number, cursor: string | null): Promise<void> {
    const started = generation;
    const older = cursor !== null;
    update(peerId, () => (older ? { loadingOlder: true, error: null, errorKind: null } : { status: 'loading', error: null, errorKind: null }));
    try {
      const page = await (older ? listMessages(peerId, cursor) : listMessages(peerId));
      if (started !== generation) return;
      update(peerId, (current) => ({
        messages: mergeMessages(current.messages, page.results),
        nextCursor: page.next_cursor,
        ...(older ? { loadingOlder: false } : { status: 'ready' }),
      }));
    } catch (error) {
      if (started !== generation) return;
      const failure = { error: userMessage(error), errorKind: errorKind(error) };
      update(peerId, () => (older ? { loadingOlder: false, ...failure } : { status: 'error', ...failure }));
    }
  }

  return {
    threads: {},

    async loadThread(peerId) {
      const { status } = thread(peerId);
      if (status === 'ready' || status === 'loading') return;
      await loadPage(peerId, null);
    },

    async loadOlder(peerId) {
      const { status, nextCursor, loadingOlder } = thread(peerId);
      if (status !== 'ready' || !nextCursor || loadingOlder) return;
      await loadPage(peerId, nextCursor);
    },

    addLocal(message) {
      update(message.recipient_id, (current) => ({ messages: appendLocal(current.messages, message) }));
    },

    updateLocal(peerId, key, patch) {
      update(peerId, (current) => ({ messages: updateLocal(current.messages, key, patch) }));
    },

    settleLocal(peerId, key, stored) {
      update(peerId, (current) => ({ messages: settleLocal(current.messages, key, stored) }));
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

    applyChanges(changes) {
      const held = get().threads;
      if (!changes.some((change) => held[change.peer_id])) return;
      set((state) => {
        const threads = { ...state.threads };
        for (const change of changes) {
          const current = threads[change.peer_id];
          if (current) threads[change.peer_id] = { ...current, messages: applyToThread(current.messages, change) };
        }
        return { threads };
      });
    },

    markIncomingRead(peerId, readAt) {
      const held = get().threads[peerId];
      if (!held?.messages.some((message) => message.sender_id === peerId && message.read_at === null)) return;
      update(peerId, (current) => ({
        messages: current.messages.map((message) =>
          message.sender_id === peerId && message.read_at === null ? { ...message, read_at: readAt } : message,
        ),
      }));
    },

    reset() {
      generation += 1;
      set({ threads: {} });
    },
  };
});

/** The user's message with this client id that the server has not stored yet, if any. */
export function findLocal(state: ThreadsState, clientId: string): ThreadMessage | undefined {
  for (const { messages } of Object.values(state.threads)) {
    const local = messages.find((message) => message.client_id === clientId && message.id === null);
    if (local) return local;
  }
  return undefined;
}

const noMessages: ThreadMessage[] = [];

/** Oldest first, ready for a virtualised list; the same array until the thread changes. */
export const useThreadMessages = (peerId: number) =>
  useThreadStore((state) => state.threads[peerId]?.messages ?? noMessages);
