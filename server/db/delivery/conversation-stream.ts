// Reading one conversation's stream by its own seqs (docs/design/conversations.md 3.5): its
// messages and the changes to them (conversation_events), the same for every member, within what
// the reader may read of it. What `sync_conversation` answers (socket protocol 2's catch-up).
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { ConversationChange, ConversationMessage, Reaction } from '../../../lib/contract';
import { attachmentOf, conversationMessageColumns, toConversationMessage } from './message-payload';
import { notHiddenFor } from '../messages';
import type { Db } from '../engine/open-database';
import { preparedQuery } from '../engine/prepared-query';
import { rows } from '../engine/raw-rows';
import { accountConversations, conversationMembers, conversationsV2, messages, uploads } from '../schema';
import { STREAM_READ_ITEMS } from './stream';

/**
 * What a member may read of a conversation: seqs in (`after`, `end`], from where they joined to
 * where they left (or the conversation's newest seq while they are in it). Null: not a member,
 * now or before, which every caller answers as it answers an unknown conversation.
 */
export interface MemberWindow {
  conversationId: number;
  userId: number;
  /** The seq they joined after (0: from the start). */
  joinedSeq: number;
  /** The last seq theirs to read: where they left, or the conversation's newest. */
  end: number;
}

/**
 * The caller's window on a conversation: their member row by its key (conversation, user) and the
 * head, in one statement (design 3.9: every route and event asks this one function). The head's
 * seq is committed with every message and change up to it, so reading up to it misses nothing.
 */
export async function memberWindow(db: Db, userId: number, conversationId: number): Promise<MemberWindow | null> {
  const [found] = await MEMBER_WINDOW(db).execute({ user: userId, conversation: conversationId });
  if (!found) return null;
  return { conversationId, userId, joinedSeq: Number(found.joinedSeq), end: Number(found.end) };
}

/**
 * The other person of a direct conversation of the caller's (design 4.3: protocol 2 names
 * conversations where protocol 1 names people). Until the send and change batches take
 * conversations, a request by conversation goes on as the same request by person, whose checks
 * (blocks, a deleted or deactivated person) then apply unchanged. Null: not a conversation the
 * caller is or was in, or not a direct one; answered as an unknown conversation. One probe of
 * the caller's list row by its key.
 */
export async function directPeerOf(db: Db, userId: number, conversationId: number): Promise<number | null> {
  const [row] = await DIRECT_PEER(db).execute({ user: userId, conversation: conversationId });
  return row?.peerId ?? null;
}

const DIRECT_PEER = preparedQuery((db) =>
  db
    .select({ peerId: accountConversations.peerId })
    .from(accountConversations)
    .where(and(eq(accountConversations.userId, sql.placeholder('user')), eq(accountConversations.conversationId, sql.placeholder('conversation'))))
    .limit(1)
    .prepare('direct_peer'),
);

const MEMBER_WINDOW = preparedQuery((db) =>
  db
    .select({
      joinedSeq: conversationMembers.joinedSeq,
      end: sql<number>`coalesce(${conversationMembers.leftSeq}, ${conversationsV2.lastSeq})`,
    })
    .from(conversationMembers)
    .innerJoin(conversationsV2, eq(conversationsV2.id, conversationMembers.conversationId))
    .where(and(eq(conversationMembers.conversationId, sql.placeholder('conversation')), eq(conversationMembers.userId, sql.placeholder('user'))))
    .prepare('member_window'),
);

/** The conversation's messages in (after, end] the reader has not deleted for themselves, in seq order: one range scan of messages_conversation_seq_idx. */
const MESSAGES_AFTER = preparedQuery((db) =>
  db
    .select(conversationMessageColumns)
    .from(messages)
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        eq(messages.conversationId, sql.placeholder('conversation')),
        gt(messages.seq, sql.placeholder('after')),
        lte(messages.seq, sql.placeholder('end')),
        notHiddenFor(sql.placeholder('user')),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(sql.placeholder('rows'))
    .prepare('conversation_messages_after'),
);

type EventRow = { seq: string | number; message_id: string | number; actor_id: number; kind: string; state: Record<string, unknown> };

/** A conversation_events row as the change it records, read back or just written (the change batch pushes what it wrote). */
export function toConversationChange(conversationId: number, row: EventRow): ConversationChange {
  const base = { conversation_id: conversationId, seq: Number(row.seq), message_id: Number(row.message_id), actor_id: row.actor_id };
  switch (row.kind) {
    case 'reaction':
      return { ...base, kind: 'reaction', reactions: row.state.reactions as Reaction[] };
    case 'edit':
      return { ...base, kind: 'edit', text: row.state.text as string, edited_at: row.state.edited_at as string };
    case 'unsend':
      return { ...base, kind: 'unsend' };
    default:
      // Membership and title events come with groups (design step 10), and with their shapes.
      throw new Error(`conversation event of kind ${row.kind} has no shape yet`);
  }
}

/** The changes in (after, end] to messages the reader has not deleted for themselves, in seq order: one range scan of the events' key. */
const changesAfter = (db: Db, window: MemberWindow, after: number, rowsWanted: number) =>
  rows<EventRow>(
    db,
    sql`select e.seq, e.message_id, e.actor_id, e.kind, e.state from conversation_events e
      where e.conversation_id = ${window.conversationId} and e.seq > ${after} and e.seq <= ${window.end}
        and not exists (select 1 from message_hidden h where h.user_id = ${window.userId} and h.message_id = e.message_id)
      order by e.seq limit ${rowsWanted}`,
  );

export interface ConversationPage {
  messages: ConversationMessage[];
  changes: ConversationChange[];
  /** Every seq in (after, through] is accounted for: returned, or left out on purpose. */
  through: number;
  /** The window's end when it was read. */
  end: number;
  hasMore: boolean;
}

/**
 * One read of the stream: at most `limit` items in (after, window end]. Each scan returns its
 * lowest limit + 1 items the reader may see, so the lowest `limit` of both are here, and every
 * seq up to the last of them that is not here is one the reader may not see (deleted for
 * themselves, or a change to such a message).
 */
async function readConversationAfter(db: Db, window: MemberWindow, after: number, limit: number): Promise<ConversationPage> {
  const from = Math.max(after, window.joinedSeq);
  const [found, changed] = await Promise.all([
    MESSAGES_AFTER(db).execute({ conversation: window.conversationId, after: from, end: window.end, user: window.userId, rows: limit + 1 }),
    changesAfter(db, window, from, limit + 1),
  ]);
  const items = [
    ...found.map((row) => ({ seq: Number(row.place.seq), message: toConversationMessage(row) })),
    ...changed.map((row) => ({ seq: Number(row.seq), change: toConversationChange(window.conversationId, row) })),
  ].sort((a, b) => a.seq - b.seq);
  const hasMore = items.length > limit;
  const page = items.slice(0, limit);
  return {
    messages: page.flatMap((item) => ('message' in item ? [item.message] : [])),
    changes: page.flatMap((item) => ('change' in item ? [item.change] : [])),
    // Past the window's end is nothing to read: a cursor beyond it comes back as the end.
    through: hasMore ? page[page.length - 1]!.seq : window.end,
    end: window.end,
    hasMore,
  };
}

/**
 * What `sync_conversation` answers: the conversation's stream after `after` as `userId` may read
 * it, at most `limit` items, read STREAM_READ_ITEMS at a time (the others' work takes its turns in
 * between, as for `sync`). Null when they are not, and never were, a member of it.
 */
export async function listConversationAfter(db: Db, userId: number, conversationId: number, after: number, limit: number): Promise<ConversationPage | null> {
  const window = await memberWindow(db, userId, conversationId);
  if (!window) return null;
  const page = await readConversationAfter(db, window, after, Math.min(limit, STREAM_READ_ITEMS));
  for (let left = limit - Math.min(limit, STREAM_READ_ITEMS); page.hasMore && left > 0; left -= Math.min(left, STREAM_READ_ITEMS)) {
    const next = await readConversationAfter(db, window, page.through, Math.min(left, STREAM_READ_ITEMS));
    page.messages.push(...next.messages);
    page.changes.push(...next.changes);
    page.through = next.through;
    page.hasMore = next.hasMore;
  }
  return page;
}
