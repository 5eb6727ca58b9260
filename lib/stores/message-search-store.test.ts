import { describe, expect, it, vi } from 'vitest';
import type { MessageSearchResult, Page } from '@/lib/contract';
import { conversationIdOf, conversationMessage, user } from '@/lib/testing/fixtures';
import { useDirectConversations } from './direct-conversations';
import { useMessageSearchStore } from './message-search-store';

const api = vi.hoisted(() => ({ searchMessages: vi.fn<(q: string, cursor?: string | null) => Promise<Page<MessageSearchResult>>>() }));
vi.mock('@/lib/api/message-search', () => api);

const result = (peerId: number, id: number): MessageSearchResult => ({ conversation_id: conversationIdOf(peerId), user: user(peerId), message: conversationMessage(id, { sender_id: peerId }), highlights: [] });

describe('message search', () => {
  it('learns each result’s conversation, so opening one reads its pages without asking whose it is', async () => {
    api.searchMessages.mockResolvedValueOnce({ results: [result(5, 1)], next_cursor: 'more' }).mockResolvedValueOnce({ results: [result(6, 2)], next_cursor: null });
    useMessageSearchStore.getState().setQuery('pizza');
    await useMessageSearchStore.getState().search();
    expect(useDirectConversations.getState().byPeer).toEqual({ 5: conversationIdOf(5) });
    await useMessageSearchStore.getState().loadMore();
    expect(useDirectConversations.getState().byPeer).toEqual({ 5: conversationIdOf(5), 6: conversationIdOf(6) });
    expect(useMessageSearchStore.getState().results.map((found) => found.user.id)).toEqual([5, 6]);
  });
});
