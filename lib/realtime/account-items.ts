// The account's own stream as it reaches the stores (socket protocol 2): its items (a read, a
// deletion for itself, a mute, made on any of its devices) and, in the account's catch-up, its
// rows that moved since its cursor. Live items and the catch-up's pages go through the same
// functions, so a row and a thread look the same however they learnt of it.
import type { AccountItem, AccountSyncResult } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { peerOf, useDirectConversations } from '@/lib/stores/direct-conversations';
import { heldItem } from '@/lib/stores/held-messages';
import { useHidingStore } from '@/lib/stores/hiding-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { threadPositions, useThreadStore } from '@/lib/stores/thread-store';

/** One item of the account's stream, applied once and in order (the catch-up's receiveItem). */
export function applyAccountItem(item: AccountItem): void {
  // Remembered even for a conversation not shown yet: no page read before it brings the message back.
  if (item.kind === 'hide') useHidingStore.getState().hidden(item.message_id);
  const peerId = peerOf(item.conversation_id);
  // A conversation the list has not shown yet: its row comes with the account's catch-up.
  if (peerId === undefined) return;
  if (item.kind === 'muted') return useConversationsStore.getState().setMuted(peerId, item.muted);
  const me = useSessionStore.getState().user?.id ?? 0;
  const change = heldItem(item, peerId, me, threadPositions(peerId), new Date().toISOString());
  if (!change) return;
  useThreadStore.getState().applyChanges([change]);
  useConversationsStore.getState().applyChanges([change], true);
}

/**
 * A page of the account's catch-up, after its items (applied in order by the catch-up): whom its
 * conversations are with (the rows name them), then its rows as the server has them now. A thread
 * held for someone with no conversation yet learns it here (begun on another device), so the
 * catch-up takes it up.
 */
export function applyAccountPage({ conversations, removed }: AccountSyncResult): void {
  for (const summary of conversations) {
    if (summary.user === null) continue;
    useDirectConversations.getState().learn(summary.conversation_id, summary.user.id);
    useThreadStore.getState().bindConversation(summary.user.id, summary.conversation_id);
  }
  useConversationsStore.getState().applySummaries(conversations, removed);
}
