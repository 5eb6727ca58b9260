// When a conversation counts as read: the user is looking at it, in a visible tab. Read marking
// goes to the server (`read`); the unread total then comes back as message_count on every socket
// of the user, so no total is computed here (docs/CLIENT-RULES.md).
import { socketService } from '@/lib/socket/socket-service';
import { selectUnreadFor, useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';

export function isTabVisible(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'visible';
}

/** The user is looking at the conversation with `peerId` right now. */
export function isViewing(peerId: number): boolean {
  return useSessionStore.getState().receiver === peerId && isTabVisible();
}

/**
 * Tells the server the conversation is read; its badge clears at once and comes back if the
 * server refuses, with `uncounted` more: messages read on arrival that never raised the badge.
 */
export async function markConversationRead(peerId: number, uncounted = 0): Promise<void> {
  const cleared = useConversationsStore.getState().markRead(peerId) + uncounted;
  const ack = await socketService.request('read', { user_id: peerId });
  if ('error' in ack) useConversationsStore.getState().addUnread(peerId, cleared);
}

/** Reads the open conversation if it has unread messages and the tab is visible. */
export function readOpenConversationIfUnread(): void {
  const receiver = useSessionStore.getState().receiver;
  if (receiver === null || !isTabVisible()) return;
  if (selectUnreadFor(useConversationsStore.getState(), receiver) > 0) void markConversationRead(receiver);
}

/** Selecting a conversation: the receiver value is set, its thread loads, it is read. */
export function openConversation(peerId: number): void {
  useSessionStore.getState().setReceiver(peerId);
  void useThreadStore.getState().loadThread(peerId);
  readOpenConversationIfUnread();
}

export function closeConversation(): void {
  useSessionStore.getState().setReceiver(null);
}
