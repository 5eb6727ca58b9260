// The conversation list: newest first, one row per person, each with its own unread badge.
// The unread total is not computed here: the counter store takes it from message_count.
import { create } from 'zustand';
import { listConversations } from '@/lib/api/conversations';
import { getProfile } from '@/lib/api/users';
import { userMessage } from '@/lib/api/user-message';
import type { Conversation, ConversationSummary, MessagePayload, UserUpdatedPayload } from '@/lib/contract';
import { useDirectConversations } from './direct-conversations';
import { useHidingStore } from './hiding-store';
import { heldMessage, positionsOf } from './held-messages';
import { applyToList, type HeldChange } from './message-changes';
import { applyMessage, applyMessages, compareMessages, dropUnlisted, mergeConversations, setUnread } from './conversation-list';
import { useSessionStore } from './session-store';

type ListStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface ConversationsState {
  conversations: Conversation[];
  /** Cursor of the next (older) page; null when everything is loaded. */
  nextCursor: string | null;
  status: ListStatus;
  loadingMore: boolean;
  error: string | null;
  /** The `sync_account` cursor read before the first page was last read (catch-up's start). */
  accountCursor: string | null;
}

interface ConversationsActions {
  /** The first page; once loaded, the same call refreshes it (after a reconnect, say). */
  loadConversations: () => Promise<void>;
  loadMoreConversations: () => Promise<void>;
  /** `message` from `message.sender_id`; `countUnread` is false when the user is looking at it. */
  receiveIncoming: (message: MessagePayload, options: { countUnread: boolean }) => void;
  /** The user's own message (send ack, `message_sent`): moves the row up, never unread. */
  recordOutgoing: (message: MessagePayload) => void;
  /**
   * Messages a sync brought (a page, any order): each peer's newest becomes its row's last
   * message, in one store update. Badges stay as they are: the server's, which the rows bring.
   */
  recordSynced: (messages: readonly { peerId: number; message: MessagePayload }[]) => void;
  /**
   * Rows as `sync_account` reports them (their conversation moved since the cursor): each the
   * server's, badge included, unless a live message made ours newer; `removed` leave the list.
   */
  applySummaries: (summaries: readonly ConversationSummary[], removed: readonly number[]) => void;
  /**
   * Changes to messages, in seq order: rows' last messages follow them. `live`: a change's
   * unread_count is the row's badge now (one from a sync leaves badges to the rows after it).
   */
  applyChanges: (changes: readonly HeldChange[], live: boolean) => void;
  /** The badge as the server counts it after a read (here: `read`'s ack; elsewhere: the `read` account item). */
  setUnreadCount: (peerId: number, count: number) => void;
  /** Sign-out: the list forgotten; answers to requests made before are dropped. */
  reset: () => void;
  /** The user blocked this person: the row leaves the list (the server's total follows by message_count). */
  removeConversation: (peerId: number) => void;
  /** The row's mute, as this device chose it or another reported it (`safety_changed`). */
  setMuted: (peerId: number, muted: boolean) => void;
  /** `user_updated`: the person's row shows their new name and photo, or that they deleted their account. */
  applyUserUpdate: (update: UserUpdatedPayload) => void;
}

export type ConversationsStore = ConversationsState & ConversationsActions;

const initialConversationsState: ConversationsState = {
  conversations: [],
  nextCursor: null,
  status: 'idle',
  loadingMore: false,
  error: null,
  accountCursor: null,
};

/** Messages this session heard were deleted for the user: a row read before shows none of them. */
const hiddenIds = () => useHidingStore.getState().done;

/**
 * The rows a direct conversation's summaries make (groups, and a conversation with nothing to
 * show, have none yet), learning which conversation is with whom on the way.
 */
function rowsOf(summaries: readonly ConversationSummary[]): Conversation[] {
  const me = useSessionStore.getState().user?.id ?? 0;
  const rows: Conversation[] = [];
  for (const summary of summaries) {
    const { user, last_message: last } = summary;
    if (user === null) continue;
    useDirectConversations.getState().learn(summary.conversation_id, user.id);
    if (last === null) continue;
    rows.push({ user, last_message: heldMessage(last, user.id, me, positionsOf(summary)), unread_count: summary.unread_count, muted: summary.muted });
  }
  return rows;
}

export const useConversationsStore = create<ConversationsStore>()((set, get) => {
  // Bumped by reset (sign-out), so answers to requests made before it are dropped.
  let generation = 0;
  // The first-page request under way: a second caller (reconnect during the first load) shares it.
  let firstPageRequest: Promise<void> | null = null;

  /** Someone new wrote: the row shows them by id until their profile arrives. */
  async function fillPeer(peerId: number): Promise<void> {
    const started = generation;
    try {
      const { id, username, avatar, is_following, follows_you, deleted } = await getProfile(peerId);
      if (started !== generation) return;
      const user = { id, username, avatar, is_following, follows_you, deleted };
      set((state) => ({ conversations: state.conversations.map((row) => (row.user.id === id ? { ...row, user } : row)) }));
    } catch {
      // Logged by the API client; the row keeps showing the person by id.
    }
  }

  async function loadFirstPage(): Promise<void> {
    const refreshing = get().status === 'ready';
    const started = generation;
    set({ status: refreshing ? 'ready' : 'loading', error: null });
    try {
      const page = await listConversations();
      if (started !== generation) return;
      const rows = rowsOf(page.results);
      set((state) => ({
        conversations: mergeConversations(dropUnlisted(state.conversations, rows, page.next_cursor === null), rows, hiddenIds()),
        // A refresh re-reads the first page; the cursor already reaches further back.
        nextCursor: refreshing ? state.nextCursor : page.next_cursor,
        status: 'ready',
        accountCursor: page.account_cursor,
      }));
    } catch (error) {
      if (started !== generation) return;
      set({ status: refreshing ? 'ready' : 'error', error: userMessage(error) });
    }
  }

  function apply(peerId: number, message: MessagePayload, unread: number): void {
    const isNew = !get().conversations.some((row) => row.user.id === peerId);
    set((state) => ({ conversations: applyMessage(state.conversations, peerId, message, unread) }));
    if (isNew) void fillPeer(peerId);
  }

  return {
    ...initialConversationsState,

    loadConversations() {
      if (firstPageRequest) return firstPageRequest;
      const request = loadFirstPage().finally(() => {
        if (firstPageRequest === request) firstPageRequest = null;
      });
      firstPageRequest = request;
      return request;
    },

    async loadMoreConversations() {
      const { nextCursor, loadingMore, status } = get();
      if (!nextCursor || loadingMore || status !== 'ready') return;
      const started = generation;
      set({ loadingMore: true, error: null });
      try {
        const page = await listConversations(nextCursor);
        if (started !== generation) return;
        const rows = rowsOf(page.results);
        set((state) => ({
          conversations: mergeConversations(state.conversations, rows, hiddenIds()),
          nextCursor: page.next_cursor,
          loadingMore: false,
        }));
      } catch (error) {
        if (started !== generation) return;
        set({ loadingMore: false, error: userMessage(error) });
      }
    },

    receiveIncoming(message, { countUnread }) {
      apply(message.sender_id, message, countUnread ? 1 : 0);
    },

    recordOutgoing(message) {
      apply(message.recipient_id, message, 0);
    },

    recordSynced(messages) {
      const newest = new Map<number, MessagePayload>();
      for (const { peerId, message } of messages) {
        const known = newest.get(peerId);
        if (!known || compareMessages(message, known) > 0) newest.set(peerId, message);
      }
      if (newest.size === 0) return;
      const before = new Set(get().conversations.map((row) => row.user.id));
      set((state) => ({ conversations: applyMessages(state.conversations, newest) }));
      for (const peerId of newest.keys()) if (!before.has(peerId)) void fillPeer(peerId);
    },

    applySummaries(summaries, removed) {
      const rows = rowsOf(summaries);
      const gone = new Set(removed.map((id) => useDirectConversations.getState().byConversation[id]));
      // A summary without a message to show (every one deleted for oneself) takes its row away too.
      for (const summary of summaries) if (summary.user !== null && summary.last_message === null) gone.add(summary.user.id);
      if (rows.length === 0 && gone.size === 0) return;
      set((state) => ({ conversations: mergeConversations(state.conversations.filter((row) => !gone.has(row.user.id)), rows, hiddenIds()) }));
    },

    applyChanges(changes, live) {
      const before = get().conversations;
      const after = changes.reduce((list, change) => applyToList(list, change, live), before);
      if (after !== before) set({ conversations: after });
    },

    setUnreadCount(peerId, count) {
      if (selectUnreadFor(get(), peerId) !== count) set((state) => ({ conversations: setUnread(state.conversations, peerId, count) }));
    },

    removeConversation(peerId) {
      set((state) => ({ conversations: state.conversations.filter((row) => row.user.id !== peerId) }));
    },

    setMuted(peerId, muted) {
      set((state) => ({ conversations: state.conversations.map((row) => (row.user.id === peerId ? { ...row, muted } : row)) }));
    },

    applyUserUpdate({ id, username, avatar, deleted }) {
      if (!get().conversations.some((row) => row.user.id === id)) return;
      const change = { username, avatar, ...(deleted ? { deleted: true } : {}) };
      set((state) => ({ conversations: state.conversations.map((row) => (row.user.id === id ? { ...row, user: { ...row.user, ...change } } : row)) }));
    },

    reset() {
      generation += 1;
      firstPageRequest = null;
      set(initialConversationsState);
    },
  };
});

export function selectUnreadFor(state: ConversationsState, peerId: number): number {
  return state.conversations.find((row) => row.user.id === peerId)?.unread_count ?? 0;
}

/** Unread messages in muted conversations (as far as the list is loaded): counted in the total, never called for. */
export function selectMutedUnread(state: ConversationsState): number {
  let muted = 0;
  for (const row of state.conversations) if (row.muted) muted += row.unread_count;
  return muted;
}

export const useConversationMuted = (peerId: number) =>
  useConversationsStore((state) => state.conversations.find((row) => row.user.id === peerId)?.muted ?? null);
