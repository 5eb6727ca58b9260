import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { MessageSearchResult, TextRange } from '../../lib/contract';
import { notHiddenFor } from './messages';
import { attachmentOf, conversationMessageColumns, toConversationMessage } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { toKeysetPage, type KeysetPage } from './engine/paging';
import { searchWords, userSummaryColumns } from './people';
import { rows as rawRows } from './engine/raw-rows';
import { accountConversations, messages, uploads, users } from './schema';
import { searchQuery, searchText, searchVector } from './tables/search';

/**
 * The messages of the caller's conversations, within what they may read of each (after the seq
 * they joined at, up to the one they left at), whose current text has a word starting with each
 * word of `query`, compared folded (searchText: no accents, no case, and the parts of a link, an
 * email or a dotted name are words of their own: "wikipedia" finds www.wikipedia.org), newest
 * first, keyset by message id: never an unsent one (its text is empty anyway, and deleted_at says
 * so), nor one the caller deleted for themselves, nor one of a direct conversation whose other
 * person is deactivated (deleted accounts stay: their conversations do). How the page is found:
 * pageIds, below. Null when the query has no word.
 */
export async function searchMessages(
  db: Db,
  userId: number,
  query: string,
  beforeId: number | null,
  limit: number,
): Promise<KeysetPage<MessageSearchResult, number> | null> {
  const words = searchWords(query);
  if (words.length === 0) return null;
  const rows = await searchMessagesQuery(db, userId, words, beforeId, limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.message.id);
  const folded = await foldAll(db, [...words, ...page.results.flatMap((row) => textWords(row.message.text).map((word) => word.text))]);
  return {
    results: page.results.map((row) => ({
      conversation_id: Number(row.place.conversationId),
      user: row.user,
      message: toConversationMessage(row),
      highlights: highlightRanges(row.message.text, words, folded),
    })),
    next: page.next,
  };
}

/**
 * searchMessages' query for `words` (searchWords' words: at least one), for EXPLAIN too: the page's
 * messages (pageIds) read whole, each with the other person of its conversation. A result names
 * that person and the client opens it at them, so only direct conversations' messages are found;
 * group conversations' results come with groups, and with a shape of their own.
 */
export function searchMessagesQuery(db: Db, userId: number, words: readonly string[], beforeId: number | null, limit: number) {
  return db
    .select({ ...conversationMessageColumns, user: userSummaryColumns(userId) })
    .from(messages)
    .innerJoin(accountConversations, and(eq(accountConversations.userId, userId), eq(accountConversations.conversationId, messages.conversationId)))
    .innerJoin(users, eq(users.id, accountConversations.peerId))
    .leftJoin(uploads, attachmentOf)
    .where(sql`${messages.id} in (${pageIds(userId, words, beforeId, limit)})`)
    .orderBy(desc(messages.id));
}

/**
 * The ids of a page of the caller's matches, newest first. The GIN index messages_search_idx finds
 * the messages with the words, ANDed (a bitmap each) with the messages of the caller's
 * conversations (by conversation id, the ids from their list rows): only messages of theirs with
 * the words are read, as the pair model's search read only those sent or received. Those are
 * sorted by id, and for each taken in turn until the page is full, the member row gives its window
 * and the list row its person, by primary key (docs/DECISIONS.md, "Search in messages").
 *
 * OFFSET 0 keeps the matches a query of their own: merged into the joins, the planner started from
 * the caller's conversations (guessing a hundred messages each) and computed the search words of
 * every message in them, 250 ms for an account with 30,000 messages where this takes 10 to 20
 * (BENCHMARKS.md, "Search by membership"). No window end from the head: a message is committed
 * with its head, so every message found is at or below the head's seq.
 */
function pageIds(userId: number, words: readonly string[], beforeId: number | null, limit: number): SQL {
  return sql`
    select found.id from (
      select id, conversation_id, seq from messages
      where ${searchVector(sql`text`)} @@ ${searchQuery(sql`${words.join(' ')}::text`)}
        and conversation_id = any(array(select conversation_id from account_conversations where user_id = ${userId}))
        and deleted_at is null and ${notHiddenFor(userId)}${beforeId === null ? sql`` : sql` and id < ${beforeId}`}
      order by id desc offset 0) found
    join conversation_members m on m.conversation_id = found.conversation_id and m.user_id = ${userId}
    join account_conversations ac on ac.user_id = ${userId} and ac.conversation_id = found.conversation_id
    join users peer on peer.id = ac.peer_id
    where found.seq > m.joined_seq and (m.left_seq is null or found.seq <= m.left_seq)
      and (peer.is_active or peer.deleted_at is not null)
    order by found.id desc limit ${limit}`;
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
