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
import { conversationWith, peerOf, useDirectConversations } from '@/lib/stores/direct-conversations';
import { heldChange, heldSeen } from '@/lib/stores/held-messages';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { retryFailedSearches, startSearchSync } from '@/lib/stores/search-sync';
import { useSessionStore } from '@/lib/stores/session-store';
import { useMessageSearchStore } from '@/lib/stores/message-search-store';
import { useReplyStore } from '@/lib/stores/reply-store';
import { useThreadStore, type ThreadsState } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';
import type { AccountItem, ConversationChange, ConversationMessage, ConversationSyncResult } from '@/lib/contract';
import { applyAccountItem, applyAccountPage } from './account-items';
import { endPreload } from './list-preload';
import { createCatchUp, type CatchUp } from './catch-up';
import { createDelayedHides, type DelayedHides } from './delayed-hides';
import { startOutboxSender, type OutboxSender, type SendOptions, type SendResult } from './outbox-sender';
import { startPresenceSubscriptions } from './presence-subscriptions';
import { wireNotifications } from './notifications';
import { createReadMarker } from './read-marking';
import { heldLive, receiveChange, wireSessionEvents, type FollowedListener } from './session-events';
import { createTypingReceiver } from './typing-receiver';
import { createTypingSender, type TypingSender } from './typing-sender';

export type { SendOptions, SendResult };


interface Session {
  userId: number;
  sender: OutboxSender;
  typing: TypingSender;
  catchUp: CatchUp;
  hides: DelayedHides;
  stop: () => void;
}

let current: Session | null = null;
const followedListeners = new Set<FollowedListener>();
let appStorage: OutboxStorage | null = null;
let appHideStorage: HideStorage | null = null;

const readFirstPage = (): Promise<void> => useConversationsStore.getState().loadConversations();

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
  endPreload();

  const catchUp = createCatchUp({
    syncAccount: (payload) => socketService.request('sync_account', payload),
    syncConversation: (payload) => socketService.request('sync_conversation', payload),
    isReady: socketService.isReady,
    applyAccount: applyAccountPage,
    applyItem: applyAccountItem,
    applyConversation: applySynced,
    onFarBehind: farBehind,
  });

  /**
   * The first page of conversations (again): unread badges are the server's. Its account cursor
   * starts catch-up the first time, so nothing stored between this read and the socket's init is
   * missed. `reuse`: a page already read for this session (list-preload.ts) is used as it is.
   */
  function loadConversations({ reuse = false } = {}): Promise<void> {
    const read = reuse && useConversationsStore.getState().status === 'ready' ? Promise.resolve() : readFirstPage();
    return read.then(() => {
      if (current !== session) return;
      const { accountCursor } = useConversationsStore.getState();
      if (accountCursor !== null) catchUp.begin(accountCursor);
      reads.readOpen();
    });
  }

  /**
   * A held conversation far behind (more than a sync page missed): the open one, if the user was
   * following its newest messages, shows its newest page at once (which holds it from there);
   * scrolled up in it, the user keeps their place and the catch-up goes through every page; a
   * thread not on screen is let go, to load afresh when opened.
   */
  function farBehind(conversationId: number): boolean | Promise<boolean> {
    const peerId = peerOf(conversationId);
    if (peerId === undefined) return false;
    const open = useSessionStore.getState().receiver === peerId;
    if (!open) {
      useThreadStore.getState().unload(peerId);
      catchUp.release(conversationId);
      return true;
    }
    if (!useViewStore.getState().seesLatest) return false;
    const following = () => useSessionStore.getState().receiver === peerId && useViewStore.getState().seesLatest;
    const before = useThreadStore.getState().threads[peerId]?.streamSeq;
    // Shown (its newest page read afresh): held from there. Not (failed, or the reader scrolled away): paged through.
    return useThreadStore.getState().restartAtNewest(peerId, following).then(() => useThreadStore.getState().threads[peerId]?.streamSeq !== before);
  }

  // The read marker names the person; protocol 2 names their conversation (known: the user has messages of it to read).
  const reads = createReadMarker({
    request: ({ user_id: peerId, up_to: upTo }) => {
      const conversationId = conversationWith(peerId);
      if (conversationId === undefined) return Promise.resolve({ error: { msg: 'No conversation yet.' } });
      return socketService.request('read', { conversation_id: conversationId, ...(upTo === undefined ? {} : { up_to: upTo }) });
    },
  });

  const sender = startOutboxSender({ userId, storage, onStored: (message) => catchUp.note(message.conversation_id, message.seq) });
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

  /**
   * Every (re)connect, once init is acknowledged: the outbox goes out, then what was missed (the
   * account's catch-up brings the rows that moved, badges included, and each held thread's what
   * it missed); a search that failed meanwhile runs again. A list that could not be read is read
   * now, and so is the open conversation's person: their profile's changes (who may message them,
   * a block) reach this tab live only while it is connected, so one made meanwhile is read here.
   */
  function onReady(): void {
    sender.flush();
    hides.retry();
    retryFailedSearches();
    if (useConversationsStore.getState().status === 'error') void loadConversations();
    void catchUp.sync({ everyHeld: true });
    const receiver = useSessionStore.getState().receiver;
    if (receiver !== null) void usePeopleStore.getState().loadProfile(receiver);
  }

  /** A thread read its newest page (or found its conversation): caught up from the seq it was read at; a thread let go is not. */
  function followThreads(state: ThreadsState, previous: ThreadsState): void {
    for (const [key, thread] of Object.entries(state.threads)) {
      const before = previous.threads[Number(key)];
      if (thread.conversationId !== null && thread.streamSeq !== null && (thread.streamSeq !== before?.streamSeq || thread.conversationId !== before.conversationId)) {
        catchUp.hold(thread.conversationId, thread.streamSeq);
      }
    }
    for (const [key, thread] of Object.entries(previous.threads)) {
      if (!state.threads[Number(key)] && thread.conversationId !== null) catchUp.release(thread.conversationId);
    }
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
      if (state.threads !== previous.threads) followThreads(state, previous);
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
      useDirectConversations.getState().reset();
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
 * A page of one held conversation's stream (up to 500 messages and changes): into its thread
 * (the merge drops what is already there) and onto its row's last message, each store updated
 * once for the whole page: merging them one by one re-sorted a long thread once per message.
 * Synced messages never count as unread (badges come with the account's rows).
 */
function applySynced(conversationId: number, messages: ConversationMessage[], changes: ConversationChange[], seen: ConversationSyncResult['seen']): void {
  const peerId = peerOf(conversationId);
  if (peerId === undefined) return;
  // The other person's receipt as it stands (one missed while away included), before the
  // messages, which take it as they are placed.
  const receipt = seen.find((position) => position.user_id === peerId);
  if (receipt) useThreadStore.getState().applyChanges([heldSeen({ ...receipt, conversation_id: conversationId })]);
  if (messages.length === 0 && changes.length === 0) return;
  const entries = messages.map((message) => ({ peerId, message: heldLive(message, peerId) }));
  useThreadStore.getState().receiveMessages(entries);
  useConversationsStore.getState().recordSynced(entries);
  // Then the changes, in seq order: each applies only to copies older than itself (their version).
  const held = changes.map((change) => heldChange(change, peerId));
  useThreadStore.getState().applyChanges(held);
  useConversationsStore.getState().applyChanges(held, false);
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
 * The ack of the user's own change to a message (lib/realtime/change-requests.ts, delayed-hides.ts),
 * as it is pushed: applied at once (the same change arriving live afterwards is then not newer, or
 * already noted, and changes nothing).
 */
export function applyOwnChange(change: ConversationChange | AccountItem): void {
  if (!current) return;
  if ('actor_id' in change) return receiveChange(change, current.catchUp);
  current.catchUp.receiveItem(change);
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
