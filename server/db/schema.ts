// The database's tables, one file per subject under tables/ (drizzle-kit reads them through this
// file: drizzle.config.ts), and the row types the server reads.
import type { messages, MESSAGE_UNREAD_COLUMNS } from './tables/messages';
import type { follows, pushSubscriptions, sessions, uploads, users } from './tables/people';
import type { blocks, reports } from './tables/safety';

export * from './tables/people';
export * from './tables/messages';
export * from './tables/safety';
export * from './tables/conversations';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
/**
 * A message's own columns as the server reads them (MESSAGE_UNREAD_COLUMNS left out). Its place in
 * its conversation (conversation_id, seq, version) is read beside it, as MessageWithPlace's.
 */
export type MessageRow = Omit<typeof messages.$inferSelect, (typeof MESSAGE_UNREAD_COLUMNS)[number] | 'conversationId' | 'seq' | 'version' | 'ordinal' | 'senderOrdinal'>;
export type FollowRow = typeof follows.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type BlockRow = typeof blocks.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
