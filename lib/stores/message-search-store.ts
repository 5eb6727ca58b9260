// Search in messages, for the side panel's message search: the query, its results page by page,
// and whether the panel shows it. State and actions only; the component debounces typing.
import { create } from 'zustand';
import { searchMessages } from '@/lib/api/message-search';
import { userMessage } from '@/lib/api/user-message';
import type { MessageSearchResult } from '@/lib/contract';
import { useDirectConversations } from './direct-conversations';

export interface MessageSearchState {
  /** The side panel shows message search instead of people search. */
  open: boolean;
  query: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  results: MessageSearchResult[];
  nextCursor: string | null;
  loadingMore: boolean;
  error: string | null;
  setOpen: (open: boolean) => void;
  setQuery: (query: string) => void;
  /** Runs the current query (a newer one drops the answer of an older one). */
  search: () => Promise<void>;
  loadMore: () => Promise<void>;
  reset: () => void;
}

/**
 * Each result names its conversation: opening it reads that conversation's pages without asking
 * whose it is (a conversation past the list's loaded pages, or with a deleted person, who has no profile).
 */
function learnConversations(results: readonly MessageSearchResult[]): void {
  for (const { conversation_id: conversationId, user } of results) useDirectConversations.getState().learn(conversationId, user.id);
}

const initial = { open: false, query: '', status: 'idle' as const, results: [], nextCursor: null, loadingMore: false, error: null };

export const useMessageSearchStore = create<MessageSearchState>()((set, get) => {
  // Each search's number: only the latest one's answer is kept.
  let latest = 0;
  return {
    ...initial,
    setOpen: (open) => set(open ? { open } : { ...initial }),
    setQuery: (query) => set(query.trim() === '' ? { query, status: 'idle', results: [], nextCursor: null, error: null } : { query }),

    async search() {
      const query = get().query.trim();
      const mine = (latest += 1);
      if (query === '') return;
      set({ status: 'loading', error: null });
      try {
        const page = await searchMessages(query);
        if (mine !== latest) return;
        learnConversations(page.results);
        set({ status: 'ready', results: page.results, nextCursor: page.next_cursor });
      } catch (error) {
        if (mine !== latest) return;
        set({ status: 'error', results: [], nextCursor: null, error: userMessage(error) });
      }
    },

    async loadMore() {
      const { query, nextCursor, loadingMore } = get();
      if (!nextCursor || loadingMore) return;
      const mine = latest;
      set({ loadingMore: true });
      try {
        const page = await searchMessages(query.trim(), nextCursor);
        if (mine !== latest) return;
        learnConversations(page.results);
        set((state) => ({ results: [...state.results, ...page.results], nextCursor: page.next_cursor, loadingMore: false }));
      } catch (error) {
        if (mine !== latest) return;
        set({ loadingMore: false, error: userMessage(error) });
      }
    },

    reset: () => {
      latest += 1;
      set({ ...initial });
    },
  };
});
