// The one place where socket events, the session's values and the tab's visibility reach the
// messaging stores. The main area calls wireStores() once signed in; sign-out (or leaving the
// main area) undoes it: subscriptions end, the stores forget the user's data.
import { onSignOut } from '@/lib/session/sign-out';
import { socketService as service } from '@/lib/socket/socket-service';
import { resetConversationsStore, useConversationsStore } from '@/lib/stores/conversations-store';
import { resetPeopleStore, usePeopleStore } from '@/lib/stores/people-store';
import { resetSafetyStore, useSafetyStore } from '@/lib/stores/safety-store';
import { startSearchSync } from '@/lib/stores/search-sync';
import { useSessionStore } from '@/lib/stores/session-store';
import { resetThreadStore, useThreadStore } from '@/lib/stores/thread-store';
import type { MessagePayload } from '@/lib/contract';
import { createCatchUp, type CatchUp } from './catch-up';
import { isViewing, markConversationRead, readOpenConversationIfUnread } from './read-marking';

let teardown: (() => void) | null = null;
let catchUp: CatchUp | null = null;
let stopPreload: (() => void) | null = null;
// When the first page was last read (performance.now()).
let listReadAt = -Infinity;
/** How recent a read of the list the session's first connection takes as current. */
const FRESH_LIST_MS = 5_000;

/**
 * The first page of conversations (again): unread badges are the server's. Its last_seq starts
 * catch-up the first time, so nothing stored between this read and the socket's init is missed.
 * `reuse`: a page already read for this session (preloadConversations) is used as it is.
 */
function loadConversations({ reuse = false } = {}): Promise<void> {
  const read = reuse && useConversationsStore.getState().status === 'ready' ? Promise.resolve() : readFirstPage();
  return read.then(() => {
    const { lastSeq } = useConversationsStore.getState();
    if (lastSeq !== null) catchUp?.begin(lastSeq);
    readOpenConversationIfUnread();
  });
}

function readFirstPage(): Promise<void> {
  return useConversationsStore
    .getState()
    .loadConversations()
    .then(() => {
      if (useConversationsStore.getState().status === 'ready') listReadAt = performance.now();
    });
}

function handleIncoming(message: MessagePayload): void {
  const peerId = message.sender_id;
  // Looking at it: it is read at once, so its badge never rises (the total is the server's).
  const readNow = isViewing(peerId);
  useConversationsStore.getState().receiveIncoming(message, { countUnread: !readNow });
  useThreadStore.getState().receiveMessage(peerId, message);
  catchUp?.note(message.seq);
  if (readNow) void markConversationRead(peerId, 1);
}

function handleSentElsewhere(message: MessagePayload): void {
  useConversationsStore.getState().recordOutgoing(message);
  useThreadStore.getState().receiveMessage(message.recipient_id, message);
  catchUp?.note(message.seq);
}

/**
 * A page of messages a sync brought (up to 500): into the threads held (the merge drops what is
 * already there) and onto the rows' last messages, each store updated once for the whole page:
 * merging them one by one re-sorted a long thread once per message. Badges then come from the
 * server with the list (loadConversations); synced messages never count as unread.
 */
function applySynced(messages: MessagePayload[]): void {
  const me = useSessionStore.getState().user?.id;
  const entries = messages.map((message) => ({ peerId: message.sender_id === me ? message.recipient_id : message.sender_id, message }));
  useThreadStore.getState().receiveMessages(entries);
  useConversationsStore.getState().recordSynced(entries);
}

/**
 * Starts reading the conversation list while the session is still being confirmed (alongside
 * accounts/info, not after it); wireStores then takes that read instead of asking again. If the
 * session ends instead (inactive account, 401), what was read is dropped with it.
 */
export function preloadConversations(): void {
  if (teardown || stopPreload) return;
  const stop = onSignOut(() => {
    stop();
    stopPreload = null;
    resetConversationsStore();
  });
  stopPreload = stop;
  void readFirstPage();
}

/**
 * Every (re)connect, once init is acknowledged: what was missed, then the list with its badges.
 * The session's first connection usually follows a read of the list by a moment: unless the sync
 * brought messages (stored between that read and init), the list would come back the same.
 */
function onReconnected(first: boolean): void {
  void catchUp?.sync().then((received) => {
    if (useConversationsStore.getState().status !== 'ready') return;
    const fresh = performance.now() - listReadAt <= FRESH_LIST_MS;
    if (received > 0 || !first || !fresh) void loadConversations();
  });
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
  const sync = createCatchUp({
    sync: service.syncMessages,
    isReady: service.isReady,
    apply: applySynced,
    // A gap closed without a reconnect: the list's badges and order catch up too.
    onGapFilled: () => void loadConversations(),
  });
  catchUp = sync;
  stopPreload?.();
  stopPreload = null;
  // Already connected when wired: any connection from now on is a reconnection.
  let connectedBefore = service.isReady();
  const onConnect = () => {
    onReconnected(!connectedBefore);
    connectedBefore = true;
  };
  const userId = useSessionStore.getState().user?.id;
  if (userId !== undefined) void useThreadStore.getState().startOutbox(userId, { onSent: (message) => sync.note(message.seq) });
  const stops = [
    service.onMessage(handleIncoming),
    service.onMessageSent(handleSentElsewhere),
    () => sync.stop(),
    service.onConversationRead(({ user_id }) => void useConversationsStore.getState().markRead(user_id)),
    service.onFollowChange((payload) => usePeopleStore.getState().applyFollowed(payload)),
    service.onFollower((payload) => usePeopleStore.getState().applyFollower(payload)),
    service.onConnect(onConnect),
    service.onSafetyChange((change) => useSafetyStore.getState().applyChange(change)),
    startSearchSync(),
  ];
  document.addEventListener('visibilitychange', onTabVisible);

  const stop = () => {
    if (teardown !== stop) return;
    teardown = null;
    for (const unsubscribe of stops) unsubscribe();
    document.removeEventListener('visibilitychange', onTabVisible);
    stopOnSignOut();
    if (catchUp === sync) catchUp = null;
    // Cached conversations are the signed-out user's private data: gone with the session.
    resetConversationsStore();
    resetThreadStore();
    resetPeopleStore();
    resetSafetyStore();
  };
  const stopOnSignOut = onSignOut(stop);
  teardown = stop;
  void loadConversations({ reuse: true });
  return stop;
}

