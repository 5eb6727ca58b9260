// Conversations and thread history (docs/API.md). Both are newest first; next_cursor pages to older.
import type { ConversationPage, ThreadPage } from '@/lib/contract';
import { THREAD_PAGE_SIZE } from '@/lib/contract';
import { api } from './client';

export function listConversations(cursor?: string | null): Promise<ConversationPage> {
  const searchParams: Record<string, string> = cursor ? { cursor } : {};
  return api.get('conversations', { searchParams }).json<ConversationPage>();
}

/**
 * One page of the thread with `userId`, newest message first: the newest page, or the page a
 * cursor names (older, or newer after a window around a message).
 */
export function listMessages(userId: number, cursor?: string | null, limit: number = THREAD_PAGE_SIZE): Promise<ThreadPage> {
  const searchParams: Record<string, string | number> = cursor ? { cursor, limit } : { limit };
  return api.get(`conversations/${userId}/messages`, { searchParams }).json<ThreadPage>();
}

/** The page centred on message `messageId`, with cursors both ways (404 when it is not the user's to see). */
export function listMessagesAround(userId: number, messageId: number, limit: number = THREAD_PAGE_SIZE): Promise<ThreadPage> {
  return api.get(`conversations/${userId}/messages`, { searchParams: { around: messageId, limit } }).json<ThreadPage>();
}
