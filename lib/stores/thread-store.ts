// Threads by person: history in pages (newest first from the server, oldest first for display),
// live messages, and the user's own messages not stored yet ("sending", then "sent" or
// "failed"). State and actions only: the outbox that sends them lives in the messaging session
// (lib/realtime/outbox-sender.ts), which reports here.
import { useMemo } from 'react';
import { create } from 'zustand';
import { listMessages, listMessagesAround } from '@/lib/api/conversations';
import { errorKind, userMessage } from '@/lib/api/user-message';
import type { MessagePayload } from '@/lib/contract';
import { useHidingStore, withoutHidden, withoutPending } from './hiding-store';
import type { ReadPositions } from './held-messages';
import { applyToThread, type HeldChange } from './message-changes';
import { positions, readPage as readPageOf } from './thread-pages';
import { detached, emptyThread, storedOf, unsentOf, type Thread } from './thread-model';
import { appendLocal, fromOldest, mergeMessages, oldestStored, removeLocal, settleLocal, updateLocal, withNewestPage, type ThreadMessage } from './thread-messages';

export type { ThreadMessage };
export interface ThreadsState {
  threads: Record<number, Thread>;
}

interface ThreadsActions {
  /** Loads the newest page unless already loaded (or loading). */
  loadThread: (peerId: number) => Promise<void>;
  loadOlder: (peerId: number) => Promise<void>;
  /** The next newer page of a window; the last one joins the newest messages. */
  loadNewer: (peerId: number) => Promise<void>;
  /**
   * Brings message `messageId` into view: at once when held, else by loading the window around it
   * (the thread then pages both ways). Resolves false when the server has no such message for the user.
   */
  showMessage: (peerId: number, messageId: number) => Promise<boolean>;
  /** The list brought the focused message into view. */
  clearFocus: (peerId: number) => void;
  /** Leaves a window for the newest messages (reloaded from the server). */
  jumpToLatest: (peerId: number) => Promise<void>;
  /**
   * Far behind after a long disconnection: the thread shows its newest page at once, in place of
   * what it held, rather than after every missed message has been caught up one page after
   * another; older ones come by scrolling up. What it showed stays until that page is in, and
   * stays for good if `stillWanted` then says no (the reader scrolled away meanwhile).
   */
  restartAtNewest: (peerId: number, stillWanted?: () => boolean) => Promise<void>;
  /** A message of the user's not stored yet, shown at the end of its thread. */
  addLocal: (message: ThreadMessage) => void;
  /** Changes the status (and error) of a message not stored yet, by its message key. */
  updateLocal: (peerId: number, key: string, patch: Partial<Pick<ThreadMessage, 'status' | 'error' | 'refusal'>>) => void;
  /** Removes a message not stored yet (a refused one the user let go), by its message key. */
  removeLocal: (peerId: number, key: string) => void;
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
  applyChanges: (changes: readonly HeldChange[]) => void;
  /** The conversation was read (here or on another device): its incoming messages are read. */
  markIncomingRead: (peerId: number, readAt: string, upTo?: number) => void;
  /**
   * The person's direct conversation became known (their first message, or one begun on another
   * device): a thread held for them without one (loaded, or loading) now holds it from its start,
   * so catch-up fills it.
   */
  bindConversation: (peerId: number, conversationId: number) => void;
  /** The thread is let go (far behind, not on screen): it loads afresh when opened again, keeping what is not sent yet. */
  unload: (peerId: number) => void;
  /** Sign-out: every thread forgotten; answers to requests made before are dropped. */
  reset: () => void;
}

export type ThreadsStore = ThreadsState & ThreadsActions;

export const useThreadStore = create<ThreadsStore>()((set, get) => {
  // Bumped by reset, so answers to requests made before it are dropped.
  let generation = 0;
  // Numbers focus requests, so asking for the same message twice still counts.
  let focusNonce = 0;
  // Numbers each thread's restarts (restartAtNewest), so only the latest one's page is shown.
  const restarts = new Map<number, number>();
  // Windows being loaded, by conversation and message: a second request for the same one (Enter
  // pressed twice on a quote) waits for the first instead of replacing the window again.
  const windowsLoading = new Map<string, Promise<boolean>>();
  const thread = (peerId: number): Thread => get().threads[peerId] ?? emptyThread;

  function update(peerId: number, change: (current: Thread) => Partial<Thread>): void {
    set((state) => {
      const current = state.threads[peerId] ?? emptyThread;
      return { threads: { ...state.threads, [peerId]: { ...current, ...change(current) } } };
    });
  }

  /** The thread's newest read receipt applied to `messages` (the user's, stored after it came). */
  const withSeen = (current: Thread, messages: ThreadMessage[]) => (current.seen ? applyToThread(messages, current.seen) : messages);

  /**
   * Live or caught-up messages: into the thread, or aside while a window is shown. Older than the
   * oldest held while there is more history (a catch-up page after the thread restarted at its
   * newest), they would leave a hole: scrolling up brings them instead.
   */
  function receive(current: Thread, arriving: readonly MessagePayload[]): Partial<Thread> {
    const incoming = withoutHidden(arriving);
    if (detached(current)) return { tail: withSeen(current, mergeMessages(current.tail, incoming)) };
    const contiguous = current.nextCursor === null ? incoming : fromOldest(incoming, oldestStored(current.messages));
    return { messages: withSeen(current, mergeMessages(current.messages, contiguous)) };
  }

  /** A newer page of a window (or the window itself): once it reaches the newest messages, the ones kept aside join it. */
  function joinIfNewest(current: Thread, page: readonly MessagePayload[], newerCursor: string | null): Thread {
    const messages = mergeMessages(current.messages, page);
    if (newerCursor !== null) return { ...current, messages, newerCursor, loadingNewer: false };
    return { ...current, messages: mergeMessages(messages, storedOf(current.tail)), tail: [], newerCursor: null, loadingNewer: false };
  }

  /** A page of the conversation with `peerId` (thread-pages.ts); what it learns is kept only while no reset came meanwhile. */
  async function readPage(peerId: number, ask: Parameters<typeof readPageOf>[1]) {
    const started = generation;
    const page = await readPageOf(peerId, ask, () => started === generation);
    return { ...page, results: withoutHidden(page.results) };
  }

  async function loadPage(peerId: number, cursor: string | null): Promise<void> {
    const started = generation;
    const older = cursor !== null;
    update(peerId, () => (older ? { loadingOlder: true, error: null, errorKind: null } : { status: 'loading', error: null, errorKind: null }));
    try {
      const page = await readPage(peerId, (conversationId) => (older ? listMessages(conversationId, cursor) : listMessages(conversationId)));
      if (started !== generation || movedOn(peerId, cursor)) return;
      update(peerId, (current) =>
        // The newest page answered after a window around a message was shown: it waits beyond the window.
        !older && detached(current)
          ? { tail: mergeMessages(current.tail, page.results), status: 'ready', ...positions(current, page.held, true) }
          : {
              messages: older ? mergeMessages(current.messages, page.results) : withNewestPage(current.messages, page),
              nextCursor: page.next_cursor,
              ...(older ? { loadingOlder: false } : { status: 'ready' }),
              ...positions(current, page.held, !older),
            },
      );
    } catch (error) {
      if (started !== generation || movedOn(peerId, cursor)) return;
      const failure = { error: userMessage(error), errorKind: errorKind(error) };
      update(peerId, () => (older ? { loadingOlder: false, ...failure } : { status: 'error', ...failure }));
    }
  }

  /**
   * An older page asked for with `cursor` answers after the thread's messages were replaced (a
   * restart at the newest, a window, a jump to the latest): it no longer joins them, and merging it
   * would leave a hole.
   */
  const movedOn = (peerId: number, cursor: string | null) => cursor !== null && thread(peerId).nextCursor !== cursor;

  /** The window around `messageId` in place of the thread's messages (showMessage). */
  async function loadWindow(peerId: number, messageId: number, focus: () => Pick<Thread, 'focus'>): Promise<boolean> {
    const started = generation;
    const wasIdle = thread(peerId).status !== 'ready';
    if (wasIdle) update(peerId, () => ({ status: 'loading', error: null, errorKind: null }));
    try {
      const page = await readPage(peerId, (conversationId) => listMessagesAround(conversationId, messageId));
      if (started !== generation) return false;
      update(peerId, (current) => {
        // What was held (the newest messages) waits beyond the window, with what arrives meanwhile.
        const aside = mergeMessages(current.tail, storedOf(current.messages));
        const window = {
          ...current,
          messages: unsentOf(current.messages),
          tail: aside,
          status: 'ready' as const,
          loadingOlder: false,
          view: current.view + 1,
        };
        return { ...joinIfNewest(window, page.results, page.newer_cursor), nextCursor: page.next_cursor, ...positions(current, page.held, false), ...focus() };
      });
      return true;
    } catch (error) {
      if (started !== generation) return false;
      const failure = { error: userMessage(error), errorKind: errorKind(error) };
      // A thread that was showing stays as it was; only the window failed.
      update(peerId, () => (wasIdle ? { status: 'error', ...failure } : failure));
      return false;
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

    removeLocal(peerId, key) {
      update(peerId, (current) => ({ messages: removeLocal(current.messages, key) }));
    },

    settleLocal(peerId, key, stored) {
      update(peerId, (current) => ({ messages: withSeen(current, settleLocal(current.messages, key, stored)) }));
    },

    receiveMessage(peerId, message) {
      if (!get().threads[peerId]) return;
      update(peerId, (current) => receive(current, [message]));
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
          if (current) threads[peerId] = { ...current, ...receive(current, incoming) };
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
          if (current) {
            const newerSeen = change.kind === 'seen' && (current.seen === null || change.seq > current.seen.seq);
            threads[change.peer_id] = {
              ...current,
              messages: applyToThread(current.messages, change),
              tail: applyToThread(current.tail, change),
              ...(newerSeen ? { seen: change } : {}),
              ...(change.kind === 'read' && change.seq > current.readSeq ? { readSeq: change.seq } : {}),
            };
          }
        }
        return { threads };
      });
    },

    markIncomingRead(peerId, readAt, upTo) {
      const reached = (message: ThreadMessage) =>
        message.sender_id === peerId && message.read_at === null && (upTo === undefined || (message.id !== null && message.id <= upTo));
      if (!get().threads[peerId]?.messages.some(reached)) return;
      update(peerId, (current) => ({
        messages: current.messages.map((message) => (reached(message) ? { ...message, read_at: readAt } : message)),
      }));
    },

    bindConversation(peerId, conversationId) {
      const held = get().threads[peerId];
      if (!held || held.conversationId !== null) return;
      update(peerId, () => ({ conversationId, streamSeq: 0 }));
    },

    unload(peerId) {
      if (!get().threads[peerId]) return;
      // What is not sent yet stays (a failed message's text lives nowhere else), in a thread that loads afresh.
      const unsent = unsentOf(get().threads[peerId]!.messages);
      set((state) => {
        const threads = { ...state.threads };
        if (unsent.length > 0) threads[peerId] = { ...emptyThread, messages: unsent };
        else delete threads[peerId];
        return { threads };
      });
    },

    async loadNewer(peerId) {
      const { status, newerCursor, loadingNewer } = thread(peerId);
      if (status !== 'ready' || newerCursor === null || loadingNewer) return;
      const started = generation;
      update(peerId, () => ({ loadingNewer: true, error: null, errorKind: null }));
      try {
        const page = await readPage(peerId, (conversationId) => listMessages(conversationId, newerCursor));
        if (started !== generation || thread(peerId).newerCursor !== newerCursor) return;
        update(peerId, (current) => ({ ...joinIfNewest(current, page.results, page.newer_cursor), ...positions(current, page.held, false) }));
      } catch (error) {
        if (started !== generation) return;
        update(peerId, () => ({ loadingNewer: false, error: userMessage(error), errorKind: errorKind(error) }));
      }
    },

    async showMessage(peerId, messageId) {
      const focus = () => ({ focus: { id: messageId, nonce: (focusNonce += 1) } });
      if (thread(peerId).messages.some((message) => message.id === messageId)) {
        update(peerId, focus);
        return true;
      }
      const key = `${peerId}:${messageId}`;
      const loading = windowsLoading.get(key);
      if (loading) return loading;
      const shown = loadWindow(peerId, messageId, focus).finally(() => windowsLoading.delete(key));
      windowsLoading.set(key, shown);
      return shown;
    },

    clearFocus(peerId) {
      if (thread(peerId).focus) update(peerId, () => ({ focus: null }));
    },

    async jumpToLatest(peerId) {
      if (!detached(thread(peerId))) return;
      // A newer page still on its way is dropped: its cursor is no longer the thread's (loadNewer).
      update(peerId, (current) => ({
        ...emptyThread,
        messages: unsentOf(current.messages),
        view: current.view + 1,
        focus: { id: 'latest', nonce: (focusNonce += 1) },
      }));
      await loadPage(peerId, null);
    },

    async restartAtNewest(peerId, stillWanted = () => true) {
      const held = get().threads[peerId];
      if (!held || held.status !== 'ready' || detached(held)) return;
      const started = generation;
      const request = (restarts.get(peerId) ?? 0) + 1;
      restarts.set(peerId, request);
      try {
        const page = await readPage(peerId, (conversationId) => listMessages(conversationId));
        // A later restart overtook this one, or the reader scrolled away meanwhile: the catch-up fills the thread.
        if (started !== generation || restarts.get(peerId) !== request || !stillWanted()) return;
        update(peerId, (current) =>
          detached(current)
            ? {}
            : {
                ...positions(current, page.held, true),
                messages: withSeen(current, withNewestPage(current.messages, page)),
                nextCursor: page.next_cursor,
                // An older page on its way belonged to what was replaced (movedOn drops it).
                loadingOlder: false,
                view: current.view + 1,
                focus: { id: 'latest', nonce: (focusNonce += 1) },
              },
        );
      } catch {
        // It stays as it was, and the catch-up fills it page by page.
      }
    },

    reset() {
      generation += 1;
      set({ threads: {} });
    },
  };
});

/** How far each side has read the conversation with `peerId`, as its thread knows (nothing for a thread not held: a new message is past it anyway). */
export function threadPositions(peerId: number): ReadPositions {
  const thread = useThreadStore.getState().threads[peerId];
  return { readSeq: thread?.readSeq ?? 0, seen: thread?.seen ?? null };
}

/** The user's message with this client id that the server has not stored yet, if any. */
export function findLocal(state: ThreadsState, clientId: string): ThreadMessage | undefined {
  for (const { messages } of Object.values(state.threads)) {
    const local = messages.find((message) => message.client_id === clientId && message.id === null);
    if (local) return local;
  }
  return undefined;
}

const noMessages: ThreadMessage[] = [];

/**
 * Oldest first, ready for a virtualised list, without those the user just deleted for themselves
 * (sent once their Undo time is over); the same array until the thread, or those, change.
 */
export function useThreadMessages(peerId: number): ThreadMessage[] {
  const messages = useThreadStore((state) => state.threads[peerId]?.messages ?? noMessages);
  const pending = useHidingStore((state) => state.pending);
  return useMemo(() => withoutPending(messages, pending), [messages, pending]);
}
