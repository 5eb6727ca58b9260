// What the user will likely open next is fetched before they open it, so that a click shows the
// conversation at once: once the list is on screen and the page is idle, the thread's code and
// the first page of the likeliest conversation, then at the next idle moment what else the list's
// screen opens (the search panels); and the first page of a row the pointer rests on.
// A prefetched thread is held like any other: live messages and catch-up pages keep it current.
import type { Conversation } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useThreadStore } from '@/lib/stores/thread-store';

/** How long the pointer rests on a row before its conversation is fetched (a sweep over the list fetches nothing). */
export const HOVER_INTENT_MS = 80;
/** The longest the first prefetch waits for an idle moment. */
const IDLE_TIMEOUT_MS = 2_000;

/** The conversation likeliest opened next: the newest one with unread messages, else the newest. */
export function likelyNext(conversations: readonly Conversation[]): number | null {
  const conversation = conversations.find((row) => row.unread_count > 0) ?? conversations[0];
  return conversation?.user.id ?? null;
}

/** The first page of the conversation with `peerId`, unless held or on its way. */
function prefetchConversation(peerId: number): void {
  void useThreadStore.getState().loadThread(peerId);
}

/** Runs `run` at the page's next idle moment (IDLE_TIMEOUT_MS at the latest); returns the cancel. */
export const whenIdle = (run: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
};

/**
 * Once the conversation list is first ready, at the next idle moment: `loadThreadCode` (the
 * thread view's chunk) and the likeliest conversation's first page; at the idle moment after
 * that, `loadLater` (what else the screen opens: the search panels), so it never competes with
 * the thread. Returns the cancel.
 */
export function prefetchWhenListReady(loadThreadCode: () => void, loadLater: () => void = () => {}): () => void {
  let cancelIdle: (() => void) | null = null;
  const start = () => {
    cancelIdle = whenIdle(() => {
      loadThreadCode();
      const peerId = likelyNext(useConversationsStore.getState().conversations);
      if (peerId !== null) prefetchConversation(peerId);
      cancelIdle = whenIdle(loadLater);
    });
  };
  if (useConversationsStore.getState().status === 'ready') {
    start();
    return () => cancelIdle?.();
  }
  const unsubscribe = useConversationsStore.subscribe((state) => {
    if (state.status !== 'ready') return;
    unsubscribe();
    start();
  });
  return () => {
    unsubscribe();
    cancelIdle?.();
  };
}

/**
 * Pointer handlers for a row: resting on it for HOVER_INTENT_MS prefetches its conversation
 * (onPointerLeave also cancels it when the row goes away).
 */
export function hoverIntent(peerId: number): { onPointerEnter: () => void; onPointerLeave: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    onPointerEnter() {
      if (timer === null) timer = setTimeout(() => prefetchConversation(peerId), HOVER_INTENT_MS);
    },
    onPointerLeave() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
