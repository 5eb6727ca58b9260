// Conversations and thread history by conversation (docs/API.md: GET /api/c and
// /api/c/:id/messages, what socket protocol 2's client reads). Both are newest first; next_cursor
// pages to older.
import type { ConversationSummaryPage, ConversationThreadPage } from '@/lib/contract';
import { THREAD_PAGE_SIZE } from '@/lib/contract';
import { api } from './client';

export function listConversations(cursor?: string | null): Promise<ConversationSummaryPage> {
  const searchParams: Record<string, string> = cursor ? { cursor } : {};
  return api.get('c', { searchParams }).json<ConversationSummaryPage>();
}

/**
 * One page of a conversation, newest message first: the newest page, or the page a cursor names
 * (older, or newer after a window around a message).
 */
export function listMessages(conversationId: number, cursor?: string | null, limit: number = THREAD_PAGE_SIZE): Promise<ConversationThreadPage> {
  const searchParams: Record<string, string | number> = cursor ? { cursor, limit } : { limit };
  return api.get(`c/${conversationId}/messages`, { searchParams }).json<ConversationThreadPage>();
}

/** The page centred on message `messageId`, with cursors both ways (404 when it is not the user's to see). */
export function listMessagesAround(conversationId: number, messageId: number, limit: number = THREAD_PAGE_SIZE): Promise<ConversationThreadPage> {
  return api.get(`c/${conversationId}/messages`, { searchParams: { around: messageId, limit } }).json<ConversationThreadPage>();
}
