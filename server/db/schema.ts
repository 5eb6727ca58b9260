// The database's tables, one file per subject under tables/ (drizzle-kit reads them through this
// file: drizzle.config.ts), and the row types the server reads.
import type { conversations, messageEvents, messages } from './tables/messages';
import type { follows, pushSubscriptions, sessions, uploads, users } from './tables/people';
import type { blocks, reports } from './tables/safety';

export * from './tables/people';
export * from './tables/messages';
export * from './tables/safety';
export * from './tables/conversations';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
/**
 * A message as the server reads it: search_vector is the index's business, never read back, and
 * the conversation model's columns (0017, 0020) are not read until its queries replace the pair model's.
 */
export type MessageRow = Omit<typeof messages.$inferSelect, 'searchVector' | 'conversationId' | 'seq' | 'version' | 'ordinal' | 'senderOrdinal'>;
export type FollowRow = typeof follows.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type BlockRow = typeof blocks.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type MessageEventRow = typeof messageEvents.$inferSelect;
