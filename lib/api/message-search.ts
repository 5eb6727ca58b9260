// Search in the user's own messages (docs/API.md, GET /api/messages/search).
import type { MessageSearchResult, Page } from '@/lib/contract';
import { api } from './client';

export function searchMessages(q: string, cursor?: string | null): Promise<Page<MessageSearchResult>> {
  return api.get('messages/search', { searchParams: cursor ? { q, cursor } : { q } }).json<Page<MessageSearchResult>>();
}
