// Reading one conversation's stream by its own seqs (docs/design/conversations.md 3.5): its
// messages and the changes to them (conversation_events), the same for every member, within what
// the reader may read of it. What `sync_conversation` answers (socket protocol 2's catch-up).
import { and, asc, desc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { ConversationChange, ConversationMessage, Reaction } from '../../../lib/contract';
import { attachmentOf, conversationMessageColumns, toConversationMessage } from './message-payload';
import { notHiddenFor } from '../messages';
import type { Db } from '../engine/open-database';
import { preparedQuery } from '../engine/prepared-query';
import { rows } from '../engine/raw-rows';
import { accountConversations, conversationMembers, conversationsV2, messages, uploads } from '../schema';

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
  /** Everything up to this seq is read by them. */
  readSeq: number;
}

/**
 * Items one read of a catch-up page takes at most, and the unit its price is counted in
 * (realtime/socket-rate-limit.ts); the export reads a fifth of it (account-export.ts). A page of
 * 500 read at once held PGlite's one connection for a tenth of a second (far longer on a busy
 * machine), and every other account's next query waited behind it; in reads of 100 the others
 * take their turns in between (db/engine/account-turns.ts).
 */
export const STREAM_READ_ITEMS = 100;

/**
 * The caller's window on a conversation: their member row by its key (conversation, user) and the
 * head, in one statement (design 3.9: every route and event asks this one function); none for a
 * direct conversation whose other person is deactivated. The head's seq is committed with every
 * message and change up to it, so reading up to it misses nothing.
 */
export async function memberWindow(db: Db, userId: number, conversationId: number): Promise<MemberWindow | null> {
  const [found] = await MEMBER_WINDOW(db).execute({ user: userId, conversation: conversationId });
  if (!found) return null;
  return { conversationId, userId, joinedSeq: Number(found.joinedSeq), end: Number(found.end), readSeq: Number(found.readSeq) };
}

/**
 * The other person of a direct conversation of the caller's (design 4.3: requests name
 * conversations, the message batch and typing still take people). Until they take conversations,
 * a send or a typing signal by conversation goes on as the same by person, whose checks (blocks,
 * a deleted or deactivated person) then apply unchanged. Null: not a conversation the
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
      readSeq: conversationMembers.readSeq,
    })
    .from(conversationMembers)
    .innerJoin(conversationsV2, eq(conversationsV2.id, conversationMembers.conversationId))
    .where(
      and(
        eq(conversationMembers.conversationId, sql.placeholder('conversation')),
        eq(conversationMembers.userId, sql.placeholder('user')),
        // A direct conversation whose other person is deactivated (not deleted) is not found, as the
        // list leaves it out and their profile is: a deactivated account is invisible to others.
        sql`not exists (select 1 from account_conversations ac join users peer on peer.id = ac.peer_id
          where ac.user_id = ${conversationMembers.userId} and ac.conversation_id = ${conversationMembers.conversationId}
            and not peer.is_active and peer.deleted_at is null)`,
      ),
    )
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
  /** How far the other members have read, where the reader may see it (as thread pages say). */
  seen: ConversationThread['seen'];
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
    seen: [],
  };
}

/**
 * What `sync_conversation` answers: the conversation's stream after `after` as `userId` may read
 * it, at most `limit` items, read STREAM_READ_ITEMS at a time (the others' work takes its turns in
 * between). Null when they are not, and never were, a member of it (or it is a direct one whose
 * other person is deactivated: memberWindow).
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
  // A receipt is a member's position, not an item of the stream (a read moves no head): each
  // answer says where the others stand, so a `seen` lost with a connection comes back with the catch-up.
  page.seen = await seenPositions(db, userId, conversationId);
  return page;
}

/** One page of a member's thread: newest first; `older`/`newer` the seq to continue from each way, null at either end. */
export interface ConversationThread {
  results: ConversationMessage[];
  older: number | null;
  newer: number | null;
  seen: { user_id: number; seq: number; read_at: string }[];
  /** The end of the member's window when the page was read, and their read position. */
  lastSeq: number;
  readSeq: number;
}

/** Where a thread page starts: the newest, older than a seq, newer than a seq, or around a message. */
export type ThreadFrom = { newest: true } | { before: number } | { after: number } | { around: number };

/**
 * A page of the conversation as the member reads it (protocol 2's thread pages), within their
 * window, without what they deleted for themselves: one range scan of (conversation_id, seq) each
 * way. 'no conversation' for one they are not in (as for none), 'no message' when `around` names
 * a message that is not one of its messages they see.
 */
export async function listConversationThread(
  db: Db,
  userId: number,
  conversationId: number,
  from: ThreadFrom,
  limit: number,
): Promise<ConversationThread | 'no conversation' | 'no message'> {
  const window = await memberWindow(db, userId, conversationId);
  if (!window) return 'no conversation';
  const page = (direction: 'older' | 'newer', bound: number, inclusive: boolean, count: number) =>
    db
      .select(conversationMessageColumns)
      .from(messages)
      .leftJoin(uploads, attachmentOf)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          // Always within the window, whatever seq a cursor names.
          gt(messages.seq, window.joinedSeq),
          lte(messages.seq, window.end),
          direction === 'newer' ? gt(messages.seq, bound) : inclusive ? lte(messages.seq, bound) : lt(messages.seq, bound),
          notHiddenFor(userId),
        ),
      )
      .orderBy(direction === 'newer' ? asc(messages.seq) : desc(messages.seq))
      .limit(count);
  const seqOf = (rows: { place: { seq: number } }[]) => Number(rows[rows.length - 1]!.place.seq);
  type Rows = Awaited<ReturnType<typeof page>>;
  let olderRows: Rows = [];
  let newerRows: Rows = [];
  let olderLimit = limit;
  let newerLimit = 0;
  if ('around' in from) {
    const [target] = await db
      .select({ seq: messages.seq })
      .from(messages)
      .where(
        and(
          eq(messages.id, from.around),
          eq(messages.conversationId, conversationId),
          gt(messages.seq, window.joinedSeq),
          lte(messages.seq, window.end),
          notHiddenFor(userId),
        ),
      )
      .limit(1);
    if (!target) return 'no message';
    olderLimit = Math.ceil(limit / 2);
    newerLimit = limit - olderLimit;
    [olderRows, newerRows] = await Promise.all([page('older', Number(target.seq), true, olderLimit + 1), page('newer', Number(target.seq), false, newerLimit + 1)]);
  } else if ('after' in from) {
    olderLimit = 0;
    newerLimit = limit;
    newerRows = await page('newer', from.after, false, limit + 1);
  } else {
    olderRows = await page('older', 'before' in from ? from.before : window.end + 1, false, limit + 1);
  }
  const older = olderRows.slice(0, olderLimit);
  const newer = newerRows.slice(0, newerLimit);
  const results = [...[...newer].reverse(), ...older].map(toConversationMessage);
  return {
    results,
    older: olderRows.length > olderLimit && older.length > 0 ? seqOf(older) : null,
    // Around a message with no room for newer ones, or from a newer cursor: whether more follow.
    newer: newerRows.length > newerLimit ? (newer.length > 0 ? seqOf(newer) : Number(olderRows[0]?.place.seq ?? 0)) : null,
    seen: await seenPositions(db, userId, conversationId),
    lastSeq: window.end,
    readSeq: window.readSeq,
  };
}

/**
 * How far the caller's conversation partners have read, where the caller may see it: members
 * other than the caller with receipts on, when the caller's are on too and neither blocked the
 * other (the pair model's rule for `seen`), at their `seen_seq`.
 */
async function seenPositions(db: Db, userId: number, conversationId: number): Promise<ConversationThread['seen']> {
  const found = await rows<{ user_id: number; seen_seq: string | number; seen_at: Date | string }>(
    db,
    sql`select m.user_id, m.seen_seq, m.seen_at from conversation_members m
      join users them on them.id = m.user_id
      join users me on me.id = ${userId}
      where m.conversation_id = ${conversationId} and m.user_id <> ${userId} and m.seen_seq > 0 and m.seen_at is not null
        and them.read_receipts and me.read_receipts
        and not exists (select 1 from blocks b where (b.blocker_id = ${userId} and b.blocked_id = m.user_id) or (b.blocker_id = m.user_id and b.blocked_id = ${userId}))`,
  );
  return found.map((row) => ({ user_id: row.user_id, seq: Number(row.seen_seq), read_at: new Date(row.seen_at).toISOString() }));
}
