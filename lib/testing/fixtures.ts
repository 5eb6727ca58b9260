// Small builders for messaging tests. The signed-in user is 7 unless a test says otherwise.
import type { Conversation, ConversationMessage, ConversationSummary, ConversationThreadPage, MessagePayload, User, UserSummary } from '@/lib/contract';

export const ME = 7;

/**
 * The signed-in user as the API returns them (accounts/info, authorize): every field set to a new
 * account's value, so a field added to User is added here once, not to every test.
 */
export function account(fields: Partial<User> = {}): User {
  return { id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true, ...fields };
}

export function user(id: number, fields: Partial<UserSummary> = {}): UserSummary {
  return { id, username: `user${id}`, avatar: null, is_following: false, follows_you: false, deleted: false, ...fields };
}

/** Message `id`, `minute` minutes past a fixed hour, so order is easy to read in tests. */
export function message(id: number, fields: Partial<MessagePayload> & { minute?: number } = {}): MessagePayload {
  const { minute = id, ...rest } = fields;
  return {
    id,
    client_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    sender_id: 2,
    recipient_id: ME,
    text: `message ${id}`,
    attachment: null,
    attachment_removed: false,
    created_at: new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString(),
    read_at: null,
    seq: id,
    edited_at: null,
    deleted: false,
    reactions: [],
    version: id,
    reply_to: null,
    ...rest,
  };
}

export function conversation(peerId: number, last: MessagePayload, unread = 0, muted = false): Conversation {
  return { user: user(peerId), last_message: last, unread_count: unread, muted };
}

/** The direct conversation of ME with `peerId` in these tests: its id is 1000 + the person's. */
export const conversationIdOf = (peerId: number) => 1000 + peerId;

/**
 * Message `id` as protocol 2 sends it (by default from person 2 to ME, at seq `id` of their
 * conversation): what the stores hold of it is `message(id)`.
 */
export function conversationMessage(id: number, fields: Partial<ConversationMessage> & { minute?: number; peer?: number } = {}): ConversationMessage {
  const { minute = id, peer, ...rest } = fields;
  const sender = rest.sender_id ?? 2;
  return {
    id,
    conversation_id: conversationIdOf(peer ?? (sender === ME ? 2 : sender)),
    seq: id,
    version: id,
    client_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    sender_id: 2,
    text: `message ${id}`,
    attachment: null,
    attachment_removed: false,
    created_at: new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString(),
    edited_at: null,
    deleted: false,
    reactions: [],
    reply_to: null,
    ...rest,
  };
}

/** ME's list row of the conversation with `peerId`, as GET /api/c and sync_account report it. */
export function summary(peerId: number, last: ConversationMessage, unread = 0, muted = false, fields: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    conversation_id: conversationIdOf(peerId),
    kind: 'direct',
    user: user(peerId),
    last_seq: last.seq,
    last_message: last,
    read_seq: 0,
    unread_count: unread,
    muted,
    left: false,
    ...fields,
  };
}

/** A thread page by conversation, newest first as the server answers; it stands at its newest seq unless told. */
export function threadPage(results: ConversationMessage[], fields: Partial<ConversationThreadPage> = {}): ConversationThreadPage {
  return {
    results,
    next_cursor: null,
    newer_cursor: null,
    seen: [],
    last_seq: Math.max(0, ...results.map((message) => Math.max(message.seq, message.version))),
    read_seq: 0,
    ...fields,
  };
}
