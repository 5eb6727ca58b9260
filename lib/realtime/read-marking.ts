// When messages count as read: the conversation is open, the tab is visible, and they have been
// on screen (the message list reports how far, lib/stores/view-store.ts). The server's `read`
// takes the newest message read (`up_to`), so the badges fall as the person scrolls down through
// unread messages and the sender's "Seen" follows (docs/DECISIONS.md, "Reading part of a
// conversation"). Reads are coalesced: one request per conversation under way at a time, and at
// most one every READ_INTERVAL_MS, each reaching as far as the person has read by then. The
// unread total comes back as message_count on every socket of the user: no total is computed here.
import type { Ack, ReadResult } from '@/lib/contract';
import { selectUnreadFor, useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';


/** At most one read per conversation this often while someone scrolls through unread messages. */
const READ_INTERVAL_MS = 1_000;

export function isTabVisible(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'visible';
}

/** The user sees the newest message of the conversation with `peerId` right now. */
export function isViewing(peerId: number): boolean {
  return useSessionStore.getState().receiver === peerId && isTabVisible() && useViewStore.getState().seesLatest;
}

/** The peer's messages to the user, up to `upTo`, not read yet as far as this tab knows. */
function hasUnreadUpTo(peerId: number, upTo: number): boolean {
  // The row's badge is the server's count: none there, nothing to read (a thread's copy may lag).
  const row = useConversationsStore.getState().conversations.find((conversation) => conversation.user.id === peerId);
  if (row && row.unread_count === 0) return false;
  const messages = useThreadStore.getState().threads[peerId]?.messages ?? [];
  return messages.some((message) => message.sender_id === peerId && message.id !== null && message.id <= upTo && message.read_at === null);
}

/** The newest stored message of the open conversation the user has seen, or null. */
function seenUpTo(peerId: number): number | null {
  const view = useViewStore.getState();
  let upTo = view.seen?.peerId === peerId ? view.seen.upTo : null;
  if (view.seesLatest) {
    const messages = useThreadStore.getState().threads[peerId]?.messages ?? [];
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const id = messages[index]!.id;
      if (id !== null) {
        upTo = Math.max(upTo ?? 0, id);
        break;
      }
    }
  }
  return upTo;
}

/** A read as the marker asks for it: the conversation with `user_id`, up to the message `up_to` (the session names the conversation). */
interface PersonRead {
  user_id: number;
  up_to?: number;
}

export interface ReadMarkerOptions {
  request: (payload: PersonRead) => Promise<Ack<ReadResult>>;
  intervalMs?: number;
}

export interface ReadMarker {
  /** Reads the open conversation as far as the user has seen it, if that reaches an unread message. */
  readOpen(): void;
  /** A message arrived in the conversation the user is looking at the newest of: read up to it. */
  readArrived(peerId: number, messageId: number): void;
  /** Forgets what is pending (sign-out). */
  stop(): void;
}

interface PeerReads {
  /** The newest message asked for (sent, or waiting to go). */
  asked: number;
  /** Messages read as they arrived, never counted on the badge: counted after all if the read fails. */
  uncounted: number;
  /** The newest message to send next; null: nothing waiting. */
  waiting: number | null;
  inFlight: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  sentAt: number;
}

export function createReadMarker({ request, intervalMs = READ_INTERVAL_MS }: ReadMarkerOptions): ReadMarker {
  const peers = new Map<number, PeerReads>();
  let stopped = false;

  function schedule(peerId: number, reads: PeerReads): void {
    if (reads.inFlight || reads.timer !== undefined || reads.waiting === null) return;
    const wait = reads.sentAt + intervalMs - performance.now();
    // Nothing sent lately: at once (opening a conversation clears its badge without a wait).
    if (wait <= 0) return void send(peerId, reads);
    reads.timer = setTimeout(() => {
      reads.timer = undefined;
      void send(peerId, reads);
    }, wait);
  }

  async function send(peerId: number, reads: PeerReads): Promise<void> {
    const upTo = reads.waiting;
    if (stopped || upTo === null) return;
    reads.waiting = null;
    reads.inFlight = true;
    reads.sentAt = performance.now();
    const readAt = new Date().toISOString();
    const uncounted = reads.uncounted;
    reads.uncounted = 0;
    const ack = await request({ user_id: peerId, up_to: upTo });
    reads.inFlight = false;
    if (stopped) return;
    if ('error' in ack) {
      // Not read after all: asked again when the person next sees it (or reopens it).
      if (reads.waiting === null) reads.asked = 0;
      const conversations = useConversationsStore.getState();
      conversations.setUnreadCount(peerId, selectUnreadFor(conversations, peerId) + uncounted);
    } else {
      useThreadStore.getState().markIncomingRead(peerId, readAt, upTo);
      useConversationsStore.getState().setUnreadCount(peerId, ack.data.unread_count);
    }
    schedule(peerId, reads);
  }

  function want(peerId: number, upTo: number, arrived = false): void {
    if (stopped) return;
    const reads = peers.get(peerId) ?? { asked: 0, uncounted: 0, waiting: null, inFlight: false, timer: undefined, sentAt: -Infinity };
    peers.set(peerId, reads);
    if (arrived) reads.uncounted += 1;
    // Reads only go forward: anything at or before what was asked is already on its way.
    if (upTo <= reads.asked) return;
    reads.asked = upTo;
    reads.waiting = upTo;
    schedule(peerId, reads);
  }

  return {
    readOpen() {
      const receiver = useSessionStore.getState().receiver;
      if (receiver === null || !isTabVisible()) return;
      const upTo = seenUpTo(receiver);
      if (upTo !== null && hasUnreadUpTo(receiver, upTo)) want(receiver, upTo);
    },
    readArrived(peerId, messageId) {
      want(peerId, messageId, true);
    },
    stop() {
      stopped = true;
      for (const reads of peers.values()) clearTimeout(reads.timer);
      peers.clear();
    },
  };
}
