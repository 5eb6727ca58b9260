// Small builders for messaging tests. The signed-in user is 7 unless a test says otherwise.
import type { Conversation, MessagePayload, User, UserSummary } from '@/lib/contract';

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
    ...rest,
  };
}

export function conversation(peerId: number, last: MessagePayload, unread = 0, muted = false): Conversation {
  return { user: user(peerId), last_message: last, unread_count: unread, muted };
}
