// The one place where the socket's events reach the stores, with the counter rules of
// docs/CLIENT-RULES.md ("Socket events"): message_count sets the unread total, each `message`
// adds one to it and is passed on, `followed` notifies its subscribers with the value false.
// The live signals (`typing`, `presence`) are ephemeral: they never touch a count or a thread.
import type { ConversationChange, ConversationMessage, FollowedPayload, MessagePayload, UserUpdatedPayload } from '@/lib/contract';
import { socketService } from '@/lib/socket/socket-service';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { peerOf, useDirectConversations } from '@/lib/stores/direct-conversations';
import { heldChange, heldMessage, heldSeen } from '@/lib/stores/held-messages';
import { refusesMessages, usePeopleStore } from '@/lib/stores/people-store';
import { hasBlocked, useSafetyStore } from '@/lib/stores/safety-store';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { threadPositions, useThreadStore } from '@/lib/stores/thread-store';
import type { CatchUp } from './catch-up';
import type { PresenceSubscriptions } from './presence-subscriptions';
import { isViewing, type ReadMarker } from './read-marking';
import type { TypingReceiver } from './typing-receiver';

/** Subscribers of `followed` hear `false`, whatever the payload (the follow state comes apart). */
export type FollowedListener = (value: false) => void;

export interface SessionEventsOptions {
  catchUp: CatchUp;
  followedListeners: ReadonlySet<FollowedListener>;
  typing: TypingReceiver;
  presence: PresenceSubscriptions;
  reads: ReadMarker;
}

/** A message of the direct conversation with `peerId` as the stores hold it, with the positions its thread knows. */
export function heldLive(message: ConversationMessage, peerId: number): MessagePayload {
  return heldMessage(message, peerId, useSessionStore.getState().user?.id ?? 0, threadPositions(peerId));
}

/** An incoming message (its sender is the other person of the direct conversation): onto its row and its thread; read at once if the user is looking at it. */
function receiveIncoming(payload: ConversationMessage, catchUp: CatchUp, reads: ReadMarker): void {
  const peerId = payload.sender_id;
  useDirectConversations.getState().learn(payload.conversation_id, peerId);
  useThreadStore.getState().bindConversation(peerId, payload.conversation_id);
  const message = heldLive(payload, peerId);
  // Looking at it: it is read at once, so its badge never rises (the total is the server's).
  const readNow = isViewing(peerId);
  useConversationsStore.getState().receiveIncoming(message, { countUnread: !readNow });
  useThreadStore.getState().receiveMessage(peerId, message);
  catchUp.note(payload.conversation_id, payload.seq);
  if (readNow) reads.readArrived(peerId, message.id);
}

/**
 * The user's own message sent from another of their tabs or devices: never unread. In a
 * conversation this tab does not know yet (begun on the other device), the account's catch-up
 * names it, with its row, and a thread held for the person catches it up.
 */
function receiveSentElsewhere(payload: ConversationMessage, catchUp: CatchUp): void {
  const peerId = peerOf(payload.conversation_id);
  if (peerId === undefined) return void catchUp.sync();
  const message = heldLive(payload, peerId);
  useConversationsStore.getState().recordOutgoing(message);
  useThreadStore.getState().receiveMessage(peerId, message);
  catchUp.note(payload.conversation_id, payload.seq);
}

/**
 * A change to a message of one of the user's conversations (theirs or the other person's): onto
 * its thread and row. An unsending by the other person may take a message off the row's badge:
 * the account's catch-up brings the row as the server counts it.
 */
export function receiveChange(payload: ConversationChange, catchUp: CatchUp): void {
  const peerId = peerOf(payload.conversation_id);
  if (peerId === undefined) return;
  const change = heldChange(payload, peerId);
  useThreadStore.getState().applyChanges([change]);
  useConversationsStore.getState().applyChanges([change], true);
  catchUp.note(payload.conversation_id, payload.seq);
  if (payload.kind === 'unsend' && payload.actor_id === peerId) void catchUp.sync();
}

/**
 * Someone's new name or photo, or their account deleted, wherever they are shown: the header when
 * it is the user (changed on another tab or device), their conversation row, profile card and
 * search result. The open conversation's person may also have changed who may message them: their
 * profile is read again, and the thread offers the message box, or says it cannot, as it now is.
 */
function applyUserUpdate(update: UserUpdatedPayload): void {
  const session = useSessionStore.getState();
  if (session.user?.id === update.id) session.publishUser({ ...session.user, username: update.username, avatar: update.avatar });
  useConversationsStore.getState().applyUserUpdate(update);
  usePeopleStore.getState().applyUserUpdate(update);
  if (!update.deleted && session.receiver === update.id) void usePeopleStore.getState().loadProfile(update.id);
}

/** Subscribes the stores to the socket's events; returns the function that unsubscribes them. */
export function wireSessionEvents({ catchUp, followedListeners, typing, presence, reads }: SessionEventsOptions): () => void {
  const counters = () => useCounterStore.getState();
  const people = () => usePeopleStore.getState();
  // The status may have changed before the session started (the socket connects first).
  useConnectionStore.getState().setStatus(socketService.status(), socketService.reconnectAttempt());
  const stops = [
    socketService.on('status', (status, attempt) => useConnectionStore.getState().setStatus(status, attempt)),
    socketService.on('message_count', ({ count }) => counters().setUnread(count)),
    socketService.on('message', (message) => {
      counters().incrementUnread();
      receiveIncoming(message, catchUp, reads);
      // What they were typing has arrived; and having written, they may now share their presence.
      typing.messageFrom(message.sender_id);
      presence.noteContact(message.sender_id);
      // Having written, they now take the user's messages (a conversation exists): shown as refusing, read again.
      if (refusesMessages(people(), message.sender_id)) people().recheckCanMessage(message.sender_id);
    }),
    socketService.on('followed', (payload: FollowedPayload) => {
      for (const listener of [...followedListeners]) listener(false);
      people().applyFollowed(payload);
    }),
    socketService.on('follower', (payload) => {
      people().applyFollower(payload);
      if (payload.following) presence.noteContact(payload.follower_id);
    }),
    socketService.on('message_sent', (message) => receiveSentElsewhere(message, catchUp)),
    // The user's own reads, deletions for themselves and mutes on their other devices (and this
    // tab's, echoed): each once, in the account's order.
    socketService.on('account_item', (item) => catchUp.receiveItem(item)),
    // The other person read the user's messages up to a seq: "Seen".
    socketService.on('seen', (payload) => useThreadStore.getState().applyChanges([heldSeen(payload)])),
    socketService.on('safety_changed', (change) => useSafetyStore.getState().applyChange(change)),
    // The server checks each pair only every few seconds (server/realtime/can-signal.ts): someone
    // blocked a moment ago may still get one through, and it stops here.
    socketService.on('typing', (payload) => {
      if (!hasBlocked(payload.user_id)) typing.receive(payload);
    }),
    socketService.on('presence', (payload) => usePresenceStore.getState().apply(payload)),
    socketService.on('user_updated', applyUserUpdate),
    // A change to a message takes a seq of its conversation's stream like a message does; it is
    // never counted as unread (an unread total it moved comes as message_count).
    socketService.on('message_change', (change) => receiveChange(change, catchUp)),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
