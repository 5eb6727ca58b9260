// When a conversation counts as read: it is open, the tab is visible and its newest message is on
// screen (a message the user has scrolled away from is not read). The server's `read` marks the
// whole conversation, so it is sent only then (docs/DECISIONS.md, "Read marking"); the unread
// total then comes back as message_count on every socket of the user, so no total is computed here.
import { socketService } from '@/lib/socket/socket-service';
import { selectUnreadFor, useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';

export { closeConversation, openConversation } from './conversation-route';

export function isTabVisible(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'visible';
}

/** The user sees the newest message of the conversation with `peerId` right now. */
export function isViewing(peerId: number): boolean {
  return useSessionStore.getState().receiver === peerId && isTabVisible() && useViewStore.getState().seesLatest;
}

/**
 * Tells the server the conversation is read; its badge clears at once and comes back if the
 * server refuses, with `uncounted` more: messages read on arrival that never raised the badge.
 */
export async function markConversationRead(peerId: number, uncounted = 0): Promise<void> {
  const cleared = useConversationsStore.getState().markRead(peerId) + uncounted;
  const readAt = new Date().toISOString();
  const ack = await socketService.request('read', { user_id: peerId });
  if ('error' in ack) useConversationsStore.getState().addUnread(peerId, cleared);
  else useThreadStore.getState().markIncomingRead(peerId, readAt);
}

/** Reads the open conversation if it has unread messages and the user sees its newest one. */
export function readOpenConversationIfUnread(): void {
  const receiver = useSessionStore.getState().receiver;
  if (receiver === null || !isViewing(receiver)) return;
  if (selectUnreadFor(useConversationsStore.getState(), receiver) > 0) void markConversationRead(receiver);
}
