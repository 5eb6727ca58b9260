// Conversations and thread history (docs/API.md). Both are newest first; next_cursor pages to older.
import type { ConversationPage, MessagePayload, Page } from '@/lib/contract';
import { THREAD_PAGE_SIZE } from '@/lib/contract';
import { api } from './client';

export function listConversations(cursor?: string | null): Promise<ConversationPage> {
  const searchParams: Record<string, string> = cursor ? { cursor } : {};
  return api.get('conversations', { searchParams }).json<ConversationPage>();
}

/** One page of the thread with `userId`, newest message first. */
export function listMessages(
  userId: number,
  cursor?: string | null,
  limit: number = THREAD_PAGE_SIZE,
): Promise<Page<MessagePayload>> {
  const searchParams: Record<string, string | number> = cursor ? { cursor, limit } : { limit };
  return api.get(`conversations/${userId}/messages`, { searchParams }).json<Page<MessagePayload>>();
}
