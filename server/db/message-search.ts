import { and, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { MessageSearchResult, TextRange } from '../../lib/contract';
import { notHiddenFor } from './messages';
import { attachmentOf, messageColumns, toMessagePayload } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { toKeysetPage, type KeysetPage } from './engine/paging';
import { searchWords, userSummaryColumns } from './people';
import { rows as rawRows } from './engine/raw-rows';
import { messages, uploads, users } from './schema';
import { searchQuery, searchText, searchVector } from './tables/search';

/**
 * The caller's messages (sent or received) whose current text has a word starting with each word
 * of `query`, compared folded (searchText: no accents, no case, and the parts of a link, an email
 * or a dotted name are words of their own: "wikipedia" finds www.wikipedia.org), newest first,
 * keyset by message id: never an unsent one (its text is empty anyway, and deleted_at says so),
 * nor one the caller deleted for themselves, nor one with someone whose account is deactivated
 * (deleted accounts stay: their conversations do). The GIN index messages_search_idx finds the
 * matches; the caller's side is then a filter on each (the trade-off is in docs/DECISIONS.md,
 * "Search in messages"). Null when the query has no word.
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
  const peerId = sql`case when ${messages.senderId} = ${userId} then ${messages.recipientId} else ${messages.senderId} end`;
  const rows = await db
    .select({ ...messageColumns, user: userSummaryColumns(userId), peerReceipts: users.readReceipts })
    .from(messages)
    .innerJoin(users, eq(users.id, peerId))
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        sql`${searchVector(messages.text)} @@ ${searchQuery(sql`${words.join(' ')}::text`)}`,
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
  const folded = await foldAll(db, [...words, ...page.results.flatMap((row) => textWords(row.message.text).map((word) => word.text))]);
  return {
    results: page.results.map((row) => ({
      conversation_id: row.message.conversationId,
      user: row.user,
      message: toMessagePayload(row, userId, readReceipts && row.peerReceipts),
      highlights: highlightRanges(row.message.text, words, folded),
    })),
    next: page.next,
  };
}

/** Words as highlights cut them: the same letters, marks and digits the query's words are made of. */
function textWords(text: string): { text: string; index: number }[] {
  return [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((match) => ({ text: match[0], index: match.index }));
}

/** Each distinct value as searchText folds it, from the database (the same unaccent rules as the index). */
async function foldAll(db: Db, values: readonly string[]): Promise<(value: string) => string> {
  const distinct = [...new Set(values)];
  const found =
    distinct.length === 0
      ? []
      : await rawRows<{ value: string; folded: string }>(
          db,
          sql`select value, ${searchText(sql`value`)} as folded from jsonb_array_elements_text(${JSON.stringify(distinct)}::jsonb) as value`,
        );
  const byValue = new Map(found.map((row) => [row.value, row.folded.trim()]));
  return (value) => byValue.get(value) ?? '';
}

/**
 * Where the query's words are in the text: for each word of the text whose folded form starts
 * with a query word's, that word's start, as long as the word typed (within the text's word), as
 * UTF-16 offsets (JavaScript string indexes) the client cuts the text at. Plain ranges, never
 * markup: the client renders text nodes.
 */
export function highlightRanges(text: string, words: readonly string[], fold: (value: string) => string): TextRange[] {
  const folded = words.map((word) => ({ length: word.length, folded: fold(word) })).filter((word) => word.folded !== '');
  const ranges: TextRange[] = [];
  for (const token of textWords(text)) {
    const form = fold(token.text);
    // The longest query word the word starts with.
    const hit = folded.filter((word) => form.startsWith(word.folded)).sort((a, b) => b.length - a.length)[0];
    if (hit) ranges.push({ start: token.index, end: token.index + Math.min(hit.length, token.text.length) });
  }
  return ranges;
}
