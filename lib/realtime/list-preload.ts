// The main area's list, read while the session is still being confirmed (alongside accounts/info,
// not after it) and before the messaging session's code is in (session-start.ts): the session
// then takes that read instead of asking again. Light on purpose: it is on the first screen.
import { onSignOut } from '@/lib/session/sign-out';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useDirectConversations } from '@/lib/stores/direct-conversations';

let stopPreload: (() => void) | null = null;

/**
 * Starts reading the conversation list, unless it is read already (a session running) or being
 * read. If the session ends instead (inactive account, 401), what was read is dropped with it.
 */
export function preloadConversations(): void {
  if (stopPreload || useConversationsStore.getState().status !== 'idle') return;
  const stop = onSignOut(() => {
    stop();
    stopPreload = null;
    useConversationsStore.getState().reset();
    useDirectConversations.getState().reset();
  });
  stopPreload = stop;
  void useConversationsStore.getState().loadConversations();
}

/** The session takes the read over (and forgets the list itself at sign-out). */
export function endPreload(): void {
  stopPreload?.();
  stopPreload = null;
}
