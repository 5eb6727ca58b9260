import { and, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { MessageSearchResult, TextRange } from '../../lib/contract';
import { attachmentOf, messageColumns, notHiddenFor, toMessagePayload } from './messages';
import type { Db } from './open-database';
import { toKeysetPage, type KeysetPage } from './paging';
import { searchWords, userSummaryColumns } from './people';
import { messages, uploads, users } from './schema';

/**
 * The caller's messages (sent or received) whose current text has a word starting with each word
 * of `query`, newest first, keyset by message id: never an unsent one (its text is empty anyway,
 * and deleted_at says so), nor one the caller deleted for themselves, nor one with someone whose
 * account is deactivated (deleted accounts stay: their conversations do). The GIN index on
 * messages.search_vector finds the matches; the caller's side is then a filter on each (the
 * trade-off is in docs/DECISIONS.md, "Search in messages"). Null when the query has no word.
 */
export async function searchMessages(
  db: Db,
  userId: number,
  query: string,
  beforeId: number | null,
  limit: number,
  readReceipts: boolean,
): Promise<KeysetPage<MessageSearchResult, number> | null> {
  const words = searchWords(query);
  if (words.length === 0) return null;
  const tsquery = words.map((word) => `${word}:*`).join(' & ');
  const peerId = sql`case when ${messages.senderId} = ${userId} then ${messages.recipientId} else ${messages.senderId} end`;
  const rows = await db
    .select({ ...messageColumns, user: userSummaryColumns(userId), peerReceipts: users.readReceipts })
    .from(messages)
    .innerJoin(users, eq(users.id, peerId))
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        sql`${messages.searchVector} @@ to_tsquery('simple', ${tsquery})`,
        or(eq(messages.senderId, userId), eq(messages.recipientId, userId)),
        isNull(messages.deletedAt),
        or(eq(users.isActive, true), isNotNull(users.deletedAt)),
        notHiddenFor(userId),
        beforeId === null ? undefined : lt(messages.id, beforeId),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.message.id);
  return {
    results: page.results.map((row) => ({
      user: row.user,
      message: toMessagePayload(row, userId, readReceipts && row.peerReceipts),
      highlights: highlightRanges(row.message.text, words),
    })),
    next: page.next,
  };
}

/**
 * Where the query's words are in the text: for each word of the text (the same letters, marks and
 * digits the query's words are made of) that starts with one of them, the matching start, as
 * UTF-16 offsets (JavaScript string indexes) the client cuts the text at. Plain ranges, never
 * markup: the client renders text nodes.
 */
export function highlightRanges(text: string, words: readonly string[]): TextRange[] {
  const ranges: TextRange[] = [];
  for (const match of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    const token = match[0].toLowerCase();
    // The longest query word the token starts with; lowercasing keeps lengths for the scripts
    // people write here, and the range is clamped to the token in case it does not.
    const hit = words.filter((word) => token.startsWith(word)).sort((a, b) => b.length - a.length)[0];
    if (hit) ranges.push({ start: match.index, end: match.index + Math.min(hit.length, match[0].length) });
  }
  return ranges;
}
