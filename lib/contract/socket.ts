// Socket.IO events shared by lib/socket (client) and server/realtime.
// init, send, follow, message_count, message and followed are the fixed events of
// docs/CLIENT-RULES.md; payload fields beyond `id` and `count`, and every other event, are ours.
import type { ErrorBody } from './http';
import type { AccountItem, ConversationChange, ConversationMessage, ConversationSummary, EditPayload, FollowPayload, HidePayload, MessagePayload, ReactPayload, ReadPayload, SeenPayload, SendPayload, UnsendPayload } from './messaging';
import { MAX_REACTIONS_PER_PERSON } from './constants';
import { CANNOT_MESSAGE, type SafetyChange } from './safety';
import type { PresenceSubscribePayload, SyncAccountPayload, SyncConversationPayload, TypingPayload, VisibilityPayload } from './schemas';

export type {
  MessagePayload,
  SendPayload,
  SyncAccountPayload,
  SyncConversationPayload,
  TypingPayload,
};

/** Every acknowledgement is either the result or an error in the HTTP error shapes. */
export type Ack<T> = { data: T } | { error: ErrorBody };
export type AckCallback<T> = (response: Ack<T>) => void;

export interface InitPayload {
  id: number;
}

/** The ack of `init`: the account, and the rules its messages follow on this server. */
export interface InitResult extends InitPayload {
  /** How long after sending a message its sender may edit it, in ms. */
  edit_window_ms: number;
  /** How long after sending a message its sender may unsend it for everyone, in ms. */
  unsend_window_ms: number;
}

/**
 * The ack of `sync_conversation`: one conversation's stream after `after`, within what the caller
 * may read of it (from when they joined to when they left), messages and changes each by seq
 * ascending; together at most `limit` items (default and maximum SYNC_PAGE_MAX).
 */
export interface ConversationSyncResult {
  conversation_id: number;
  /** Messages with seq > after (never those the caller deleted for themselves). */
  messages: ConversationMessage[];
  /** Changes to messages with seq > after, to apply in seq order with the messages. */
  changes: ConversationChange[];
  /**
   * Every seq in (after, through] is accounted for by this answer (a message or change, or one
   * left out because it is not the caller's to see: a message they deleted for themselves). The
   * cursor to resume from.
   */
  through: number;
  /**
   * The conversation's latest seq the caller may read when the answer was read (for someone who
   * left, where they left): `through` equals it unless `has_more`.
   */
  last_seq: number;
  /** More follows: ask again after `through`. */
  has_more: boolean;
  /**
   * How far the other members have read, where the caller may see it (as thread pages say): a
   * read moves no seq of the conversation, so each answer carries the receipts as they are now.
   */
  seen: { user_id: number; seq: number; read_at: string }[];
}

/**
 * The ack of `sync_account`: what changed for the account since `cursor` (socket protocol 2's
 * catch-up, before each changed conversation's own `sync_conversation`).
 */
export interface AccountSyncResult {
  /** The account's own items after the cursor, by seq, at most `limit`. */
  items: AccountItem[];
  /**
   * Its conversations whose stream moved since the cursor (a message or a change), each as its
   * list shows it, at most SYNC_CONVERSATIONS_PAGE; one may come twice across answers (harmless).
   */
  conversations: ConversationSummary[];
  /**
   * Its conversations that moved since the cursor but are no longer in its list (the other person
   * blocked by the account, or their account deactivated): rows to take away. A block lifted or an
   * account back brings the conversation in `conversations` again.
   */
  removed: number[];
  /** Opaque: where to ask from next time. Without a cursor, the answer is only this one: from now. */
  cursor: string;
  /** More follows: ask again with `cursor`. */
  has_more: boolean;
}

/**
 * The ack of `react`, `edit`, `unsend` and `hide`: the change as it is pushed (to every member, a
 * ConversationChange; a deletion for oneself, the account's `hide` item), or null when it was
 * already so.
 */
export interface ChangeResult {
  change: ConversationChange | AccountItem | null;
}

/**
 * Why `send` was refused, as the field error line that says so (`non_field_errors`): final, the
 * same message would be refused again, so the outbox gives up on it. A text over the limit is
 * refused by the payload's check instead (a line starting `text:`).
 */
export const SEND_REFUSALS = {
  recipient_gone: 'recipient_id: User not found.',
  // The same words for a block (either way) and for "who can message me": nothing more is revealed.
  not_allowed: `recipient_id: ${CANNOT_MESSAGE}`,
  self: 'recipient_id: You cannot message yourself.',
  attachment_gone: 'attachment_id: No such upload of yours.',
  reply_gone: 'reply_to: No such message in this conversation.',
  sender_gone: 'User not found.',
} as const;

/** A refused message's reason as the client tells them apart: a SEND_REFUSALS key, a text too long, or any other refusal. */
export type SendRefusal = keyof typeof SEND_REFUSALS | 'too_long' | 'invalid';

/**
 * Why `react`, `edit`, `unsend` or `hide` was refused, as the field error line that says so
 * (`non_field_errors`): the same request would be refused again. Someone else's message reads
 * exactly like a missing one. The client shows each in the reader's language.
 */
export const CHANGE_REFUSALS = {
  not_found: 'message_id: Message not found.',
  not_yours: 'message_id: This is not your message.',
  deleted: 'message_id: This message was deleted.',
  too_late: 'message_id: It is too late to change this message.',
  not_allowed: `message_id: ${CANNOT_MESSAGE}`,
  empty: 'text: A message needs text or an attachment.',
  too_many: `emoji: At most ${MAX_REACTIONS_PER_PERSON} different reactions per message.`,
} as const;

export type ChangeRefusal = keyof typeof CHANGE_REFUSALS;

export interface MessageCountPayload {
  count: number;
}

/** A follow changed: sent to the follower's sockets as `followed`, to the followee's as `follower`. */
export interface FollowedPayload {
  follower_id: number;
  followee_id: number;
  following: boolean;
  /** The followee's follower count after the change. */
  followers_count: number;
}

/** The ack of `read`: the unread total, and the conversation's own unread count, after it. */
export interface ReadResult extends MessageCountPayload {
  unread_count: number;
}

/** `typing` as a member hears it: who is (or stopped) writing, in which conversation. */
export interface TypingEventPayload {
  conversation_id: number;
  user_id: number;
  typing: boolean;
}

/**
 * Someone's presence as a viewer may see it. Online: `online` true, `last_seen_at` null. Offline:
 * `online` false, `last_seen_at` when their last tab closed (null when not known). Hidden (they
 * turned presence off, or the viewer did, or they no longer share it with the viewer): `online`
 * false and `last_seen_at` null, shown as nothing at all.
 */
export interface PresencePayload {
  user_id: number;
  online: boolean;
  last_seen_at: string | null;
}

/** The ack of `presence_subscribe`: the current presence of those the viewer may see. */
export interface PresenceSubscribeResult {
  /** Only the people whose presence the viewer may see; anyone else asked for is left out. */
  presence: PresencePayload[];
}

/**
 * Someone's name or photo changed (the user's own included): what lists, threads and the header
 * show of them. The same fields as in UserSummary. Also sent, with the name and photo as they
 * are, when who may message them changed (a client holding their profile reads it again), and
 * with `deleted: true` when they deleted their account.
 */
export interface UserUpdatedPayload {
  id: number;
  username: string | null;
  avatar: string | null;
  deleted?: boolean;
}

/**
 * What a client asks (socket protocol 2, docs/design/conversations.md 4.3): it names
 * conversations by id (a person still, to begin a direct conversation), and its own message and
 * changes come back as they are pushed.
 */
export interface ClientToServerEvents {
  init: (payload: InitPayload, ack?: AckCallback<InitResult>) => void;
  /** Into a conversation of the caller's, or to a person (how a direct conversation begins). */
  send: (payload: SendPayload, ack?: AckCallback<ConversationMessage>) => void;
  follow: (payload: FollowPayload, ack?: AckCallback<FollowedPayload>) => void;
  read: (payload: ReadPayload, ack?: AckCallback<ReadResult>) => void;
  /** Catch-up of one conversation by its own seqs (answered on every socket). */
  sync_conversation: (payload: SyncConversationPayload, ack?: AckCallback<ConversationSyncResult>) => void;
  /** Which of the account's conversations changed, and its own items, since a cursor (answered on every socket). */
  sync_account: (payload: SyncAccountPayload, ack?: AckCallback<AccountSyncResult>) => void;
  /** Ephemeral: relayed to the other member's tabs, never stored. The ack says nothing about delivery. */
  typing: (payload: TypingPayload, ack?: AckCallback<Record<string, never>>) => void;
  presence_subscribe: (payload: PresenceSubscribePayload, ack?: AckCallback<PresenceSubscribeResult>) => void;
  /** The tab is in view or not: the server pushes only to users with no tab in view. */
  visibility: (payload: VisibilityPayload, ack?: AckCallback<VisibilityPayload>) => void;
  /** Changes to messages, each written to its conversation's stream (or the actor's own items) (docs/DELIVERY.md). */
  react: (payload: ReactPayload, ack?: AckCallback<ChangeResult>) => void;
  edit: (payload: EditPayload, ack?: AckCallback<ChangeResult>) => void;
  unsend: (payload: UnsendPayload, ack?: AckCallback<ChangeResult>) => void;
  hide: (payload: HidePayload, ack?: AckCallback<ChangeResult>) => void;
}

/**
 * What a client is pushed: messages and changes by their conversation's seq, the same copy to
 * every member; the account's own items by its seq; receipts by conversation.
 */
export interface ServerToClientEvents {
  message_count: (payload: MessageCountPayload) => void;
  /** A message from someone else in one of the user's conversations: raises the unread count by one. */
  message: (payload: ConversationMessage) => void;
  followed: (payload: FollowedPayload) => void;
  /** The user's own message, sent from another of their devices (never `message`: not unread). */
  message_sent: (payload: ConversationMessage) => void;
  /** Someone followed or unfollowed the user. */
  follower: (payload: FollowedPayload) => void;
  /** One of the user's devices blocked or unblocked someone, muted a conversation, or changed who may message them. */
  safety_changed: (payload: SafetyChange) => void;
  /** Someone is (or stopped) writing in one of the user's conversations. */
  typing: (payload: TypingEventPayload) => void;
  /** The presence of someone this socket subscribed to changed. */
  presence: (payload: PresencePayload) => void;
  /** The user, or someone in their conversation list, changed their name or photo. */
  user_updated: (payload: UserUpdatedPayload) => void;
  /** A message of one of the user's conversations changed: the same copy to every member, by the conversation's seq. */
  message_change: (payload: ConversationChange) => void;
  /** One of the user's devices read, deleted a message for itself or muted: for their devices only, by the account's seq. */
  account_item: (payload: AccountItem) => void;
  /** Someone read the user's messages up to a seq (when both have read receipts on). */
  seen: (payload: SeenPayload) => void;
}

/**
 * The socket protocol this client speaks: the shape of its events (docs/API.md, "Socket
 * protocols"). A server that no longer serves it refuses the handshake (`ProtocolRefusal`), and
 * the tab reloads to get the client that speaks one it does.
 */
export const SOCKET_PROTOCOL = 2;

/**
 * The handshake's `auth` object: the stored token value, with or without its Bearer prefix, and
 * the client's protocol (absent: 1, what every tab from before protocols were numbered speaks,
 * which is no longer served).
 */
export interface HandshakeAuth {
  token: string;
  protocol?: number;
}

/** What `connect_error` says when the handshake's protocol is not served: the message, and as its data, the protocols that are. */
export const OUTDATED_CLIENT_MSG = 'This version of Parley is out of date; reload the page.';
export interface ProtocolRefusal {
  protocols: number[];
}
