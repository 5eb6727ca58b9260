// What one thread holds (a person's conversation as the thread store keeps it), its empty
// state and the predicates on it. The store (thread-store.ts) changes threads; thread-messages.ts
// has the pure functions on their messages.
import type { MessagePayload } from '@/lib/contract';
import type { HeldChange } from './message-changes';
import type { ErrorKind } from '@/lib/api/user-message';
import type { ThreadMessage } from './thread-messages';

type ThreadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface Thread {
  /** Oldest first; messages not stored yet come last. */
  messages: ThreadMessage[];
  /** Cursor of the next older page; null when the beginning is reached. */
  nextCursor: string | null;
  /** 'idle': history not loaded (only messages sent or received since). */
  status: ThreadStatus;
  loadingOlder: boolean;
  /**
   * Cursor of the next newer page while the thread shows a window away from the newest messages
   * (opened around a message); null when it reaches the newest, as usual.
   */
  newerCursor: string | null;
  loadingNewer: boolean;
  /**
   * While a window is shown: the newest messages held before it and those that arrived since,
   * kept aside (showing them after the window would hide the gap) until the window's newer
   * pages reach them.
   */
  tail: ThreadMessage[];
  /**
   * Counts the times the messages were replaced rather than extended (a window around a message
   * took the place of what was shown): the list starts over on each, at the focused message.
   */
  view: number;
  /**
   * The message to bring into view and highlight, or 'latest' for the newest (after leaving a
   * window, where the list would otherwise open at the first unread); `nonce` changes with every request.
   */
  focus: { id: number | 'latest'; nonce: number } | null;
  /**
   * The newest read receipt heard (the peer read the user's messages up to its seq). Kept to apply
   * again to the user's messages stored after it arrived: a receipt can overtake the ack of a
   * message it covers, whose payload then says read_at null.
   */
  seen: Extract<HeldChange, { kind: 'seen' }> | null;
  /** The user read the peer's messages up to this seq of the conversation (as far as this tab knows). */
  readSeq: number;
  /** The direct conversation with the person, once there is one (and the thread was loaded). */
  conversationId: number | null;
  /**
   * The conversation's seq its newest page was read at: the thread reflects every message and
   * change up to it, so catch-up goes on from there (null: not loaded, or no conversation yet).
   */
  streamSeq: number | null;
  /** What went wrong with the last load, as a sentence for the reader; null when nothing did. */
  error: string | null;
  errorKind: ErrorKind | null;
}

export const emptyThread: Thread = {
  messages: [],
  nextCursor: null,
  status: 'idle',
  loadingOlder: false,
  newerCursor: null,
  loadingNewer: false,
  tail: [],
  view: 0,
  focus: null,
  seen: null,
  readSeq: 0,
  conversationId: null,
  streamSeq: null,
  error: null,
  errorKind: null,
};

/** A window away from the newest messages is shown: live messages wait in `tail`. */
export const detached = (thread: Thread) => thread.newerCursor !== null;
export const unsentOf = (messages: readonly ThreadMessage[]) => messages.filter((message) => message.id === null);
/** Messages the server stored: their id, seq and version are set, as in a payload. */
export const storedOf = (messages: readonly ThreadMessage[]) => messages.filter((message) => message.id !== null) as MessagePayload[];
