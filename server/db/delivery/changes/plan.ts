// What every kind of change shares: the request as asked, what the change batch read under its
// locks (the accounts, the message as its actor may see it), and the plan a kind's rule answers
// with (the statements and stream rows that carry it out). Each kind's rule has its own file here.
import type { AccountItem, ChangeRefusal, ConversationChange, Reaction, SeenPayload } from '../../../../lib/contract';
import type { MessageWithPlace } from '../message-payload';
import type { MessageRow } from '../../schema';
import type { Statement } from '../../engine/script-transaction';

/** How long after sending its sender may edit a message, and unsend it (server/config.ts). */
export interface MessageWindows {
  editWindowMs: number;
  unsendWindowMs: number;
}

/** One change as asked for; `windowMs`: how long after sending its sender may still do it. */
export type ChangeRequest =
  | { kind: 'react'; actorId: number; messageId: number; emoji: string; add: boolean }
  | { kind: 'edit'; actorId: number; messageId: number; text: string; windowMs: number }
  | { kind: 'unsend'; actorId: number; messageId: number; windowMs: number }
  | { kind: 'hide'; actorId: number; messageId: number }
  /** `upTo`: the newest message read (null: all of them). */
  | { kind: 'read'; actorId: number; conversationId: number; upTo: number | null };

export type ChangeOutcome =
  | { refused: ChangeRefusal }
  | {
      /** Accounts whose unread total moved (and a reader's, always), with the total now (for message_count). */
      unreadTotals: Map<number, number>;
      /** A file no message carries any more: removed from storage once the transaction committed. */
      removedStorageKey?: string;
      /** For a read: the reader's unread count of that conversation after it. */
      conversationUnread?: number;
      /** What goes to the sockets once it committed (docs/API.md, "Socket.IO"). */
      pushes: Pushes;
    };

/** What a change sends to the sockets: each part, or null when it has none. */
export interface Pushes {
  /** A change to a message's own state, the same for every member, and who they are. */
  shared: { change: ConversationChange; members: number[] } | null;
  /** The actor's own item (a read, a hide), for their devices. */
  item: { userId: number; item: AccountItem } | null;
  /** The receipt of a read, for the sender whose messages it passed. */
  seen: { to: number; payload: SeenPayload } | null;
}

/** An account as the batch locked it: where its private items end, and what the rules need. */
export interface Account {
  accountSeq: number;
  active: boolean;
  deleted: boolean;
  readReceipts: boolean;
}

/** A message as its actor may see it, with what the rules need, read under the locks. */
export interface Found {
  message: MessageRow;
  /** Its conversation, its seq there and that conversation's newest seq (null only for a message stored before conversations). */
  conversation: { id: number; seq: number; lastSeq: number } | null;
  hidden: boolean;
  blocked: boolean;
  peer: { id: number; active: boolean; deleted: boolean; readReceipts: boolean };
  reactionRows: ReactionRow[];
  storageKey: string | null;
  /** Another message carries its upload. */
  carried: boolean;
  /**
   * For a change that may move someone's unread count (a hide: the actor's; an unsend: the
   * recipient's), that member as their position says: read up to `readSeq`, whether they deleted
   * this message for themselves, and their unread count of the conversation now. Null otherwise.
   */
  counted: { readSeq: number; hid: boolean; unread: number } | null;
  /** For `hide`: the conversation's newest other message the actor sees. */
  preview: MessageWithPlace | null;
}

/** One person's reaction; `at` in ms (the column's precision). */
export interface ReactionRow {
  emoji: string;
  userId: number;
  at: number;
}

/** A change as every member of its conversation sees it, before it has the conversation's seq. */
interface SharedChange {
  conversationId: number;
  /** Everyone it goes to: the conversation's members. */
  members: number[];
  messageId: number;
  actorId: number;
  kind: 'reaction' | 'edit' | 'unsend';
  /** The resulting state, the same for every member. */
  state: Record<string, unknown>;
}

/** An item for the actor's own devices only, before it has the account's seq. */
interface OwnItem {
  userId: number;
  conversationId: number;
  kind: 'read' | 'hide';
  state: Record<string, unknown>;
  /** For a hide: the message its state's `preview_id` names, to push it as every member sees it. */
  preview?: MessageWithPlace | null;
}

/** What one change writes, and what it answers once committed. */
export interface Plan {
  writes: Statement[];
  /** Its row in the conversation's stream (a change to a message's own state). */
  shared?: SharedChange;
  /** Its row among the actor's private items (a read, a hide). */
  own?: OwnItem;
  /** A read's receipt in protocol 2's shape, for the sender (when receipts allow it). */
  seen?: { to: number; payload: SeenPayload };
  /** Accounts whose unread total to answer with. */
  totals: number[];
  removedStorageKey?: string;
  /** For a read: the reader's unread count of that conversation after it. */
  conversationUnread?: number;
}

/** What a planned change answers: refused, already so, or the plan to carry out. */
export type Decision = { refused: ChangeRefusal } | Plan;

export const UNCHANGED: Plan = { writes: [], totals: [] };

/** Still inside its window (ms after it was sent), by the database's clock. */
export const withinWindow = (message: MessageRow, now: Date, windowMs: number) => now.getTime() - message.createdAt.getTime() <= windowMs;

type StateChange = { kind: 'reaction'; reactions: Reaction[] } | { kind: 'edit'; text: string; edited_at: string } | { kind: 'unsend' };

/**
 * A change to a message's own state: one row in its conversation's stream, for every member, its
 * state the same for all (none for a message stored before conversations).
 */
export function stateChange(context: Found, actorId: number, change: StateChange): Pick<Plan, 'shared'> {
  const { message, conversation, peer } = context;
  const { kind, ...state } = change;
  if (!conversation) return {};
  return { shared: { conversationId: conversation.id, members: [actorId, peer.id], messageId: message.id, actorId, kind, state } };
}

/** What a kind's rule decides a change to one message from. */
export interface MessageCase<Kind extends ChangeRequest['kind']> {
  request: Extract<ChangeRequest, { kind: Kind }>;
  /** The message as its actor may see it: found, and not deleted for them. */
  context: Found;
  accounts: Map<number, Account>;
  /** The database's clock. */
  now: Date;
}

/** For reactions and edits, the two must still be able to talk. */
export const mayNotTalk = (context: Found) => context.blocked || context.peer.deleted;
