// Direct messages, conversations and attachments. Their limits are in constants.ts; payload
// schemas in schemas.ts (server-side validation), of which the client uses the inferred types.
import type { Page, UserSummary } from './people';

/** An uploaded file, as stored (POST /api/uploads) and as attached to a message. */
export interface Attachment {
  id: string;
  name: string;
  mime_type: string;
  size: number;
  /** Pixel size for images, so the UI can reserve the space before the image loads. */
  width: number | null;
  height: number | null;
  /** Where to fetch it: /api/uploads/:id/:name (unguessable id). */
  url: string;
}

/**
 * A direct message with the viewer's read state: the shape the app's stores hold messages in, made
 * from the ConversationMessage the server sends (lib/stores/held-messages.ts): `seq` and `version`
 * are the conversation's, and `read_at` comes from the read positions. The server sends none.
 */
export interface MessagePayload {
  id: number;
  client_id: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  attachment: Attachment | null;
  /**
   * It had an attachment whose file was erased with its sender's account: shown as removed. Always
   * sent by the server; absent on a message the client composed that is not stored yet.
   */
  attachment_removed?: boolean;
  created_at: string;
  /**
   * To its recipient: when they read it. To its sender: when it was read, only while both of them
   * have read receipts on (and only for a read made while both had them on); null otherwise.
   */
  read_at: string | null;
  /**
   * Its place: in the app's stores, the conversation's seq (held-messages.ts); in a message
   * search result, the viewer's own numbering of the messages they sent or received (the pair
   * model's, still written).
   */
  seq: number;
  /** When its sender last changed the text; null: never edited. */
  edited_at: string | null;
  /** Unsent by its sender: the text is empty, the attachment and reactions are gone ("Message deleted"). */
  deleted: boolean;
  /** Who reacted with what, by emoji in the order they were first used. */
  reactions: Reaction[];
  /**
   * The conversation's seq of the latest change to this message that this copy reflects (edit,
   * reaction, unsend); `seq` when it never changed. A change applies to a held copy only when its
   * seq is greater (docs/DELIVERY.md, "Changes to messages").
   */
  version: number;
  /**
   * The message this one answers, as it is now (unsent: `deleted`, empty text), so a quote never
   * needs a second request; null when it answers none. Absent on a message composed and not stored yet.
   */
  reply_to?: ReplySummary | null;
}

/** What a reply quotes of the message it answers: its start, not the whole text. */
export interface ReplySummary {
  id: number;
  sender_id: number;
  /** The first REPLY_SNIPPET_LENGTH characters of its current text. */
  text: string;
  deleted: boolean;
  /** Its attachment's name and type (for a "Photo" or file label); null without one. */
  attachment: { name: string; mime_type: string } | null;
}

/** A part of a text, as JavaScript string offsets: `text.slice(start, end)`. */
export interface TextRange {
  start: number;
  end: number;
}

/** One message found by GET /api/messages/search: with whom, the message, and where the words are in its text. */
export interface MessageSearchResult {
  /** The direct conversation it is in (socket protocol 2 names it): opening the result reads its pages. */
  conversation_id: number;
  /** The other person of that conversation. */
  user: UserSummary;
  /** As every member sees it: no one's read state, which a search has no use for. */
  message: ConversationMessage;
  highlights: TextRange[];
}

/**
 * A thread page. Pages read `around` a message (or newer than one) also carry `newer_cursor`: the
 * cursor of the next newer page, null once the newest message is in.
 */
export interface ThreadPage extends Page<MessagePayload> {
  newer_cursor?: string | null;
}

/** One emoji on a message and who added it, in the order they did. */
export interface Reaction {
  emoji: string;
  user_ids: number[];
}

/**
 * A message of a conversation as every member sees it (socket protocol 2: `sync_conversation`):
 * its place is the conversation's, not the viewer's. Read state is not part of it: each member's
 * position is theirs, and receipts are members' positions, not fields of a message.
 */
export interface ConversationMessage {
  id: number;
  conversation_id: number;
  /**
   * Its place in the conversation's stream, shared with the changes (1, 2, 3…, no gaps): a member
   * who holds 1…n of it has missed nothing up to n; `sync_conversation` fetches what comes after.
   */
  seq: number;
  /** The seq of the latest change this copy reflects (`seq` when it never changed); a ConversationChange applies only when its seq is greater. */
  version: number;
  client_id: string;
  sender_id: number;
  text: string;
  attachment: Attachment | null;
  attachment_removed: boolean;
  created_at: string;
  edited_at: string | null;
  deleted: boolean;
  reactions: Reaction[];
  reply_to: ReplySummary | null;
}

interface ConversationChangeBase {
  conversation_id: number;
  /** Its place in the conversation's stream, shared with the messages. */
  seq: number;
  /** The message changed. */
  message_id: number;
  /** Who changed it. */
  actor_id: number;
}

/** A change to a message of a conversation, the same for every member, carrying the message's resulting state. */
export type ConversationChange =
  | (ConversationChangeBase & { kind: 'reaction'; reactions: Reaction[] })
  | (ConversationChangeBase & { kind: 'edit'; text: string; edited_at: string })
  /** Unsent by its sender. */
  | (ConversationChangeBase & { kind: 'unsend' });

/**
 * A conversation as one member's list shows it (socket protocol 2: `sync_account`): the head's
 * state as far as their window reaches, and their own position in it.
 */
export interface ConversationSummary {
  conversation_id: number;
  kind: 'direct' | 'group';
  /** The other person of a direct conversation (null in a group). */
  user: UserSummary | null;
  /** The conversation's newest seq the member may read: where they left, or its newest. */
  last_seq: number;
  /** The newest message of their window they have not deleted for themselves (null: none). */
  last_message: ConversationMessage | null;
  /** Everything up to this seq is read. */
  read_seq: number;
  unread_count: number;
  muted: boolean;
  /** They left or were removed (or their account went): nothing after `last_seq` reaches them. */
  left: boolean;
}

/**
 * An item of an account's own stream, for its devices only (socket protocol 2: `sync_account`),
 * each at the account's next seq (1, 2, 3…, no gaps): its reads, its deletions for itself, its mutes.
 */
export type AccountItem =
  /** One of its devices read the conversation up to `read_seq`; `unread_count` is what is left. */
  | { seq: number; conversation_id: number; kind: 'read'; read_seq: number; unread_count: number }
  /**
   * It deleted a message for itself. `preview`: the conversation's newest message it has not
   * deleted, now (null: none), for a list row whose last message this was.
   */
  | { seq: number; conversation_id: number; kind: 'hide'; message_id: number; preview: ConversationMessage | null; unread_count?: number }
  | { seq: number; conversation_id: number; kind: 'muted'; muted: boolean };

/**
 * A read receipt (socket protocol 2: `seen`): `user_id` read the conversation up to its `seq`, to
 * the senders of the messages that read passed when both have receipts on and neither blocked the other.
 */
export interface SeenPayload {
  conversation_id: number;
  user_id: number;
  seq: number;
  read_at: string;
}

/**
 * GET /api/c/:conversationId/messages (socket protocol 2's thread pages): newest first, by the
 * conversation's seq, each message as every member sees it. `seen`: how far each other member has
 * read, where the caller may see it (in a direct conversation, the other person when both have
 * read receipts on).
 */
export interface ConversationThreadPage {
  results: ConversationMessage[];
  /** Older messages: pass as `cursor`; null at the start. */
  next_cursor: string | null;
  /** Newer messages (pages around a message, or from a newer cursor): null at the end. */
  newer_cursor: string | null;
  seen: { user_id: number; seq: number; read_at: string }[];
  /**
   * The conversation's newest seq the caller may read when the page was read: the page reflects
   * every change up to it, so `sync_conversation` from it misses nothing.
   */
  last_seq: number;
  /** The caller's read position: their messages from others after it are unread. */
  read_seq: number;
}

/** One row of GET /api/conversations: newest first by last message. */
export interface Conversation {
  user: UserSummary;
  last_message: MessagePayload;
  /** Unread messages from this person to the signed-in user. */
  unread_count: number;
  /** The signed-in user muted it: the badge stays, notifications never come (on any device). */
  muted: boolean;
}

/**
 * GET /api/c: the account's list by conversation (socket protocol 2's), newest message first, each
 * row as `sync_account` reports it. `account_cursor`: a `sync_account` cursor read before the page,
 * so everything up to it is in the list and `sync_account` from it tells what moved since.
 */
export interface ConversationSummaryPage extends Page<ConversationSummary> {
  account_cursor: string;
}

export type { EditPayload, FollowPayload, HidePayload, ReactPayload, ReadPayload, SendPayload, SettingsRequest, UnsendPayload } from './schemas';
