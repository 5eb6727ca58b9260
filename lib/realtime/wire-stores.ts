// The one place where socket events, the session's values and the tab's visibility reach the
// messaging stores. The main area calls wireStores() once signed in; sign-out (or leaving the
// main area) undoes it: subscriptions end, the stores forget the user's data.
import { onSignOut } from '@/lib/session/sign-out';
import { socketService as service } from '@/lib/socket/socket-service';
import { resetConversationsStore, useConversationsStore } from '@/lib/stores/conversations-store';
import { resetPeopleStore, usePeopleStore } from '@/lib/stores/people-store';
import { startSearchSync } from '@/lib/stores/search-sync';
import { useSessionStore } from '@/lib/stores/session-store';
import { resetThreadStore, useThreadStore } from '@/lib/stores/thread-store';
import type { MessagePayload } from '@/lib/contract';
import { isViewing, markConversationRead, readOpenConversationIfUnread } from './read-marking';

let teardown: (() => void) | null = null;

function loadConversations(): void {
  void useConversationsStore.getState().loadConversations().then(readOpenConversationIfUnread);
}

function handleIncoming(message: MessagePayload): void {
  const peerId = message.sender_id;
  // Looking at it: it is read at once, so its badge never rises (the total is the server's).
  const readNow = isViewing(peerId);
  useConversationsStore.getState().receiveIncoming(message, { countUnread: !readNow });
  useThreadStore.getState().receiveMessage(peerId, message);
  if (readNow) void markConversationRead(peerId, 1);
}

function handleSentElsewhere(message: MessagePayload): void {
  useConversationsStore.getState().recordOutgoing(message);
  useThreadStore.getState().receiveMessage(message.recipient_id, message);
}

/** After a reconnect, events sent while we were away are lost: read again what is shown. */
function catchUp(): void {
  if (useConversationsStore.getState().status !== 'ready') return;
  loadConversations();
  const receiver = useSessionStore.getState().receiver;
  useThreadStore.getState().forgetThreadsExcept(receiver);
  if (receiver !== null) void useThreadStore.getState().refreshThread(receiver);
}

function onTabVisible(): void {
  if (document.visibilityState === 'visible') readOpenConversationIfUnread();
}

/**
 * Starts the messaging data flow and loads the conversation list; returns the function that
 * stops it. Calling it again while wired returns the same function without wiring twice.
 */
export function wireStores(): () => void {
  if (teardown) return teardown;
  // A new session starts with no open conversation. This happens here, not at sign-out, because
  // SPEC §4 has sign-out remove the stored token and nothing else.
  useSessionStore.getState().setReceiver(null);
  const stops = [
    service.onMessage(handleIncoming),
    service.onMessageSent(handleSentElsewhere),
    service.onConversationRead(({ user_id }) => void useConversationsStore.getState().markRead(user_id)),
    service.onFollowChange((payload) => usePeopleStore.getState().applyFollowed(payload)),
    service.onFollower((payload) => usePeopleStore.getState().applyFollower(payload)),
    service.onConnect(catchUp),
    startSearchSync(),
  ];
  document.addEventListener('visibilitychange', onTabVisible);

  const stop = () => {
    if (teardown !== stop) return;
    teardown = null;
    for (const unsubscribe of stops) unsubscribe();
    document.removeEventListener('visibilitychange', onTabVisible);
    stopOnSignOut();
    // Cached conversations are the signed-out user's private data: gone with the session.
    resetConversationsStore();
    resetThreadStore();
    resetPeopleStore();
  };
  const stopOnSignOut = onSignOut(stop);
  teardown = stop;
  loadConversations();
  return stop;
}

