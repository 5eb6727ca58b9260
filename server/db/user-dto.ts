import { DEFAULT_NOTIFICATION_PREVIEW, NOTIFICATION_PREVIEWS, type MessagePolicy, type User } from '../../lib/contract';
import type { UserRow } from './schema';

/** The only shape a user leaves the server in; internal columns (firebase_uid...) stay inside. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    avatar: row.avatar,
    language: row.language,
    is_active: row.isActive,
    message_policy: row.messagePolicy as MessagePolicy,
    show_presence: row.showPresence,
    notification_preview: NOTIFICATION_PREVIEWS.find((preview) => preview === row.notificationPreview) ?? DEFAULT_NOTIFICATION_PREVIEW,
    notification_sound: row.notificationSound,
    read_receipts: row.readReceipts,
  };
}
