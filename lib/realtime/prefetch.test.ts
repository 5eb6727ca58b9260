import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationThreadPage } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useDirectConversations } from '@/lib/stores/direct-conversations';
import { useThreadStore } from '@/lib/stores/thread-store';
import { conversation, conversationIdOf, conversationMessage, message, threadPage } from '@/lib/testing/fixtures';
import { HOVER_INTENT_MS, hoverIntent, likelyNext, prefetchWhenListReady } from './prefetch';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
  listMessagesAround: vi.fn(),
  listConversations: vi.fn(),
}));
vi.mock('@/lib/api/conversations', () => api);

const list = [conversation(3, message(30)), conversation(4, message(20), 2), conversation(5, message(10), 1)];

describe('prefetching the likely next conversation', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    api.listMessages.mockReset();
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(1)]));
    useThreadStore.getState().reset();
    useConversationsStore.getState().reset();
    // The list's rows named their conversations, so a thread's page needs no profile first.
    for (const row of list) useDirectConversations.getState().learn(conversationIdOf(row.user.id), row.user.id);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the newest conversation with unread messages, else the newest', () => {
    expect(likelyNext(list)).toBe(4);
    expect(likelyNext(list.map((row) => ({ ...row, unread_count: 0 })))).toBe(3);
    expect(likelyNext([])).toBeNull();
  });

  it('waits for the list, then at an idle moment loads the thread code and that conversation’s first page', async () => {
    const loadThreadCode = vi.fn();
    const stop = prefetchWhenListReady(loadThreadCode);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(loadThreadCode).not.toHaveBeenCalled();
    useConversationsStore.setState({ conversations: list, status: 'ready' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(loadThreadCode).toHaveBeenCalledTimes(1);
    expect(api.listMessages).toHaveBeenCalledTimes(1);
    expect(api.listMessages).toHaveBeenCalledWith(conversationIdOf(4));
    expect(useThreadStore.getState().threads[4]?.status).toBe('ready');
    // Once: a later refresh of the list fetches nothing more.
    useConversationsStore.setState({ status: 'loading' });
    useConversationsStore.setState({ status: 'ready' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(api.listMessages).toHaveBeenCalledTimes(1);
    stop();
  });

  it('loads what else the screen opens (the search panels) at the idle moment after the thread, once', async () => {
    const order: string[] = [];
    const stop = prefetchWhenListReady(
      () => order.push('thread'),
      () => order.push('search'),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(order).toEqual([]);
    useConversationsStore.setState({ conversations: list, status: 'ready' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(order).toEqual(['thread', 'search']);
    useConversationsStore.setState({ status: 'loading' });
    useConversationsStore.setState({ status: 'ready' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(order).toEqual(['thread', 'search']);
    stop();
  });

  it('loads nothing later once stopped between the two idle moments', async () => {
    const thread = vi.fn();
    const picker = vi.fn();
    useConversationsStore.setState({ conversations: list, status: 'ready' });
    const stop = prefetchWhenListReady(thread, picker);
    // (jsdom has no requestIdleCallback: an idle moment is 200 ms there.)
    await vi.advanceTimersByTimeAsync(250);
    expect(thread).toHaveBeenCalledTimes(1);
    expect(picker).not.toHaveBeenCalled();
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(picker).not.toHaveBeenCalled();
  });

  it('fetches nothing once stopped (the area closed before an idle moment)', async () => {
    const loadThreadCode = vi.fn();
    useConversationsStore.setState({ conversations: list, status: 'ready' });
    const stop = prefetchWhenListReady(loadThreadCode);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(loadThreadCode).not.toHaveBeenCalled();
    expect(api.listMessages).not.toHaveBeenCalled();
  });

  it('fetches a row’s conversation when the pointer rests on it, not when it sweeps past', async () => {
    const sweep = hoverIntent(5);
    sweep.onPointerEnter();
    await vi.advanceTimersByTimeAsync(HOVER_INTENT_MS / 2);
    sweep.onPointerLeave();
    await vi.advanceTimersByTimeAsync(HOVER_INTENT_MS * 2);
    expect(api.listMessages).not.toHaveBeenCalled();

    const rest = hoverIntent(5);
    rest.onPointerEnter();
    rest.onPointerEnter(); // focus after the pointer: still one fetch
    await vi.advanceTimersByTimeAsync(HOVER_INTENT_MS);
    expect(api.listMessages).toHaveBeenCalledTimes(1);
    expect(api.listMessages).toHaveBeenCalledWith(conversationIdOf(5));
    // Held now: resting on it again asks for nothing.
    rest.onPointerLeave();
    rest.onPointerEnter();
    await vi.advanceTimersByTimeAsync(HOVER_INTENT_MS);
    expect(api.listMessages).toHaveBeenCalledTimes(1);
  });
});
