// The signed-in user's messaging session: created when a user is known (sign-in, or the main
// area's guard after a reload) and stopped at sign-out, however it happens. It owns what lives
// exactly as long as that: the outbox, catch-up by seq, the wiring of socket events into the
// stores (session-events.ts) and the read marking that follows the tab's visibility. The socket
// service underneath only transports; the stores only hold state.
import { onSignOut } from '@/lib/session/sign-out';
import { appOfflineSnapshots, type OfflineSnapshotStorage } from '@/lib/offline/offline-snapshot';
import { keepOfflineSnapshot } from '@/lib/realtime/snapshot-keeper';
import { createHideStorage, type HideStorage } from '@/lib/outbox/hide-storage';
import { createOutboxStorage, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { socketService } from '@/lib/socket/socket-service';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { retryFailedSearches, startSearchSync } from '@/lib/stores/search-sync';
import { useSessionStore } from '@/lib/stores/session-store';
import { useMessageSearchStore } from '@/lib/stores/message-search-store';
import { useReplyStore } from '@/lib/stores/reply-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';
import type { MessageChange, MessagePayload } from '@/lib/contract';
import { createCatchUp, type CatchUp } from './catch-up';
import { createDelayedHides, type DelayedHides } from './delayed-hides';
import { startOutboxSender, type OutboxSender, type SendOptions, type SendResult } from './outbox-sender';
import { startPresenceSubscriptions } from './presence-subscriptions';
import { wireNotifications } from './notifications';
import { createReadMarker } from './read-marking';
import { wireSessionEvents, type FollowedListener } from './session-events';
import { createTypingReceiver } from './typing-receiver';
import { createTypingSender, type TypingSender } from './typing-sender';

export type { SendOptions, SendResult };

/** How recent a read of the list the session's first connection takes as current. */
const FRESH_LIST_MS = 5_000;

interface Session {
  userId: number;
  sender: OutboxSender;
  typing: TypingSender;
  catchUp: CatchUp;
  hides: DelayedHides;
  stop: () => void;
}

let current: Session | null = null;
let stopPreload: (() => void) | null = null;
// When the first page was last read (performance.now()).
let listReadAt = -Infinity;
const followedListeners = new Set<FollowedListener>();
let appStorage: OutboxStorage | null = null;
let appHideStorage: HideStorage | null = null;

function readFirstPage(): Promise<void> {
  return useConversationsStore
    .getState()
    .loadConversations()
    .then(() => {
      if (useConversationsStore.getState().status === 'ready') listReadAt = performance.now();
    });
}

/**
 * Starts reading the conversation list while the session is still being confirmed (alongside
 * accounts/info, not after it); the session then takes that read instead of asking again. If the
 * session ends instead (inactive account, 401), what was read is dropped with it.
 */
export function preloadConversations(): void {
  if (current || stopPreload) return;
  const stop = onSignOut(() => {
    stop();
    stopPreload = null;
    useConversationsStore.getState().reset();
  });
  stopPreload = stop;
  void readFirstPage();
}

export interface StartOptions {
  /** Where unsent messages wait (IndexedDB in the browser); tests pass one of their own. */
  storage?: OutboxStorage;
  /** Where what an offline start shows is kept (IndexedDB in the browser); null: nowhere. */
  snapshots?: OfflineSnapshotStorage | null;
  /** Where deletions for oneself wait until the server has them (IndexedDB in the browser). */
  hideStorage?: HideStorage;
}

/**
 * Starts the session for `userId` and then initialises the socket with that id, so that no event
 * of the new connection arrives before its listeners. Calling it again for the same user changes
 * nothing; for another user, the previous session stops first.
 */
export function startMessagingSession(userId: number, { storage, snapshots, hideStorage }: StartOptions = {}): void {
  if (current?.userId === userId) {
    socketService.initSocket(userId);
    return;
  }
  current?.stop();
  current = createSession(
    userId,
    storage ?? (appStorage ??= createOutboxStorage()),
    snapshots === undefined ? appOfflineSnapshots() : snapshots,
    hideStorage ?? (appHideStorage ??= createHideStorage()),
  );
  socketService.initSocket(userId);
}

function createSession(userId: number, storage: OutboxStorage, snapshots: OfflineSnapshotStorage | null, hideStorage: HideStorage): Session {
  // A new session starts with no open conversation; sign-out itself keeps the receiver value
  // (docs/CLIENT-RULES.md: it removes the token and nothing else), so it is cleared here.
  useSessionStore.getState().setReceiver(null);
  stopPreload?.();
  stopPreload = null;

  const catchUp = createCatchUp({
    sync: (payload) => socketService.request('sync', payload),
    isReady: socketService.isReady,
    apply: (messages, changes) => applySynced(userId, messages, changes),
    // Far behind: what is on screen (the open thread, the list) is read afresh at once, and the
    // catch-up goes through every page once those reads are answered.
    onFarBehind: () => Promise.all([restartOpenThread(), loadConversations()]),
    // A gap closed without a reconnect: the list's badges and order catch up too.
    onGapFilled: () => void loadConversations(),
  });

  /**
   * The first page of conversations (again): unread badges are the server's. Its last_seq starts
   * catch-up the first time, so nothing stored between this read and the socket's init is missed.
   * `reuse`: a page already read for this session (preloadConversations) is used as it is.
   */
  function loadConversations({ reuse = false } = {}): Promise<void> {
    const read = reuse && useConversationsStore.getState().status === 'ready' ? Promise.resolve() : readFirstPage();
    return read.then(() => {
      if (current !== session) return;
      const { lastSeq } = useConversationsStore.getState();
      if (lastSeq !== null) catchUp.begin(lastSeq);
      reads.readOpen();
    });
  }

  const reads = createReadMarker({ request: (payload) => socketService.request('read', payload) });

  const sender = startOutboxSender({ userId, storage, onStored: (message) => catchUp.note(message.seq) });
  // Typing is ephemeral: its acks say nothing worth waiting for, and a signal that fails is not retried.
  const typing = createTypingSender({ emit: (payload) => void socketService.request('typing', payload) });
  const typingReceiver = createTypingReceiver();
  const presence = startPresenceSubscriptions();
  const hides = createDelayedHides({
    userId,
    storage: hideStorage,
    send: (messageId) => socketService.request('hide', { message_id: messageId }),
    apply: applyOwnChange,
  });
  // The page closing ends the Undo time: what was deleted is sent now (and at the next start if
  // this does not get through).
  const onPageHide = () => hides.sendAll();

  // Already connected when started: any connection from now on is a reconnection.
  let connectedBefore = socketService.isReady();
  /**
   * Every (re)connect, once init is acknowledged: the outbox goes out, then what was missed, then
   * the list with its badges; a search that failed meanwhile runs again. The session's first
   * connection usually follows a read of the list by a moment: unless the sync brought messages
   * (stored between that read and init), the list would come back the same.
   */
  function onReady(): void {
    const first = !connectedBefore;
    connectedBefore = true;
    sender.flush();
    hides.retry();
    retryFailedSearches();
    void catchUp.sync().then((received) => {
      if (current !== session || useConversationsStore.getState().status !== 'ready') return;
      const fresh = performance.now() - listReadAt <= FRESH_LIST_MS;
      if (received > 0 || !first || !fresh) void loadConversations();
    });
  }

  function onTabVisible(): void {
    if (document.visibilityState === 'visible') reads.readOpen();
  }

  const stops = [
    wireSessionEvents({ catchUp, followedListeners, typing: typingReceiver, presence, reads }),
    // After the stores' wiring: a message's notification reads the row that wiring just updated.
    wireNotifications(userId),
    socketService.on('ready', onReady),
    () => catchUp.stop(),
    startSearchSync(),
    // Scrolling down through the conversation reads what comes on screen, and so does what
    // arrives in the open thread (a page loaded, a catch-up) while its newest message is in view.
    useViewStore.subscribe((state, previous) => {
      if ((state.seesLatest && !previous.seesLatest) || state.seen !== previous.seen) reads.readOpen();
    }),
    useThreadStore.subscribe((state, previous) => {
      const receiver = useSessionStore.getState().receiver;
      if (receiver !== null && state.threads[receiver]?.messages !== previous.threads[receiver]?.messages) reads.readOpen();
    }),
    () => reads.stop(),
    () => typing.dispose(),
    () => typingReceiver.stop(),
    () => presence.stop(),
    keepOfflineSnapshot(userId, snapshots),
  ];
  document.addEventListener('visibilitychange', onTabVisible);
  window.addEventListener('pagehide', onPageHide);

  const session: Session = {
    userId,
    sender,
    typing,
    catchUp,
    hides,
    stop() {
      if (current !== session) return;
      current = null;
      // Signing out ends the Undo time too; what cannot be sent now waits for this user's next session.
      hides.sendAll();
      hides.stop();
      window.removeEventListener('pagehide', onPageHide);
      for (const unsubscribe of stops) unsubscribe();
      document.removeEventListener('visibilitychange', onTabVisible);
      stopOnSignOut();
      sender.stop();
      // Cached conversations, threads and people are the signed-out user's private data.
      useConversationsStore.getState().reset();
      useThreadStore.getState().reset();
      usePeopleStore.getState().reset();
      useSafetyStore.getState().reset();
      // Found messages, a quote in the composer and the long messages opened in full are theirs too.
      useMessageSearchStore.getState().reset();
      useReplyStore.setState({ replying: {} });
      useViewStore.setState({ expanded: {} });
    },
  };
  const stopOnSignOut = onSignOut(() => session.stop());
  current = session;
  void loadConversations({ reuse: true });
  return session;
}

/**
 * A page of messages a sync brought (up to 500): into the threads held (the merge drops what is
 * already there) and onto the rows' last messages, each store updated once for the whole page:
 * merging them one by one re-sorted a long thread once per message. Badges then come from the
 * server with the list; synced messages never count as unread.
 */
function applySynced(me: number, messages: MessagePayload[], changes: MessageChange[]): void {
  const entries = messages.map((message) => ({ peerId: message.sender_id === me ? message.recipient_id : message.sender_id, message }));
  useThreadStore.getState().receiveMessages(entries);
  useConversationsStore.getState().recordSynced(entries);
  // Then the changes, in seq order: each applies only to copies older than itself (their version).
  useThreadStore.getState().applyChanges(changes);
  useConversationsStore.getState().applyChanges(changes, false);
}

/**
 * Far behind (more than a sync page missed): the open conversation, if the user was following its
 * newest messages, shows the newest page at once; the catch-up still goes through every page for
 * the other threads. Scrolled up in it, the user keeps their place.
 */
function restartOpenThread(): Promise<void> {
  const receiver = useSessionStore.getState().receiver;
  const following = () => useSessionStore.getState().receiver === receiver && useViewStore.getState().seesLatest;
  return receiver !== null && following() ? useThreadStore.getState().restartAtNewest(receiver, following) : Promise.resolve();
}

/** Stops the session now (sign-out stops it by itself). */
export function stopMessagingSession(): void {
  current?.stop();
}

const NO_SESSION = 'Not signed in.';

/** The composer's send: through the outbox of the running session. Typing to them stops. */
export function sendMessage(peerId: number, text: string, options?: SendOptions): Promise<SendResult> {
  if (!current) return Promise.resolve({ status: 'failed', clientId: '', error: NO_SESSION });
  current.typing.stop(peerId);
  return current.sender.send(peerId, text, options);
}

/** "Delete for me": the message leaves its thread now; the deletion is sent once its Undo time is over. */
export function deleteForMe(peerId: number, messageId: number): void {
  current?.hides.hide(peerId, messageId);
}

/** Undo of "Delete for me", while it is offered: the message is back in its thread. False when too late. */
export function undoDeleteForMe(messageId: number): boolean {
  return current?.hides.undo(messageId) ?? false;
}

/** The text in the box to `peerId` changed (the composer): typing signals follow it. */
export function noteTyping(peerId: number, hasText: boolean): void {
  current?.typing.input(peerId, hasText);
}

/** The box to `peerId` was left (blur, another conversation opened): typing to them stops. */
export function stopTyping(peerId: number): void {
  current?.typing.stop(peerId);
}

/**
 * The ack of the user's own change to a message (lib/realtime/change-requests.ts): applied at once
 * (the same change arriving live afterwards is then not newer and changes nothing) and its seq noted.
 */
export function applyOwnChange(change: MessageChange): void {
  if (!current) return;
  useThreadStore.getState().applyChanges([change]);
  useConversationsStore.getState().applyChanges([change], true);
  current.catchUp.note(change.seq);
}

/** A failed message's retry button. */
export function retryMessage(clientId: string): Promise<SendResult> {
  if (!current) return Promise.resolve({ status: 'failed', clientId, error: NO_SESSION });
  return current.sender.retry(clientId);
}

/**
 * `followed` events, as subscribers hear them: the value false (SPEC.md, "Follow stream": the
 * session boundary's contract, kept exact though the app itself reads the follow state from the
 * people store). Returns the unsubscribe.
 */
export function onFollowed(listener: FollowedListener): () => void {
  followedListeners.add(listener);
  return () => void followedListeners.delete(listener);
}
