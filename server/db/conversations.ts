import { and, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { AccountItem, Conversation } from '../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './delivery/message-payload';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { toKeysetPage, type KeysetPage } from './engine/paging';
import { userSummaryColumns } from './people';
import { hasBlocked, lockUsersInOrder } from './safety-rules';
import { accountConversations, conversations, messages, uploads, users } from './schema';

/**
 * The message a conversation row shows: its last one, unless the user deleted that one for
 * themselves, then the newest they did not (one backward scan of messages_pair_idx, which stops
 * at the first). Null when they deleted every one: the row is left out until someone writes again.
 * COALESCE evaluates the scan only when the last message is hidden.
 */
const shownMessageId = sql`coalesce(
  (select ${conversations.lastMessageId} where not exists (select 1 from message_hidden h
    where h.user_id = ${conversations.userId} and h.message_id = ${conversations.lastMessageId})),
  (select m2.id from messages m2
    where least(m2.sender_id, m2.recipient_id) = least(${conversations.userId}, ${conversations.peerId})
      and greatest(m2.sender_id, m2.recipient_id) = greatest(${conversations.userId}, ${conversations.peerId})
      and not exists (select 1 from message_hidden h2 where h2.user_id = ${conversations.userId} and h2.message_id = m2.id)
    order by m2.id desc limit 1))`;

/**
 * A member's unread count (docs/design/conversations.md 3.6): the messages after their read
 * position, up to the end of what they may read, that are not theirs, not unsent and not deleted
 * by them for themselves. One range scan of messages_conversation_seq_idx from `read_seq`, and
 * none at all when the head is not past it (every conversation read); a scan as long as the unread
 * messages (10,000 unread: 33 ms on PGlite), so the list and the totals keep the pair counters
 * until the count is kept (docs/DECISIONS.md, "Conversations, not pairs: the reads move").
 * `member` and `head` are SQL aliases of conversation_members and conversations_v2.
 */
export const unreadCountSql = (member: string, head: string) => `(case when ${head}.last_message_seq > ${member}.read_seq then (
  select count(*)::int from messages u
  where u.conversation_id = ${member}.conversation_id and u.seq > ${member}.read_seq
    and u.seq <= coalesce(${member}.left_seq, ${head}.last_seq)
    and u.sender_id <> ${member}.user_id and u.deleted_at is null
    and not exists (select 1 from message_hidden uh where uh.user_id = ${member}.user_id and uh.message_id = u.id)) else 0 end)`;

/**
 * The same count from the ordinals on the message rows (docs/design/conversations.md 3.6), in a
 * few index probes however many are unread: the conversation's messages between the read position
 * and the end of what the member may read (the ordinals of the last message at or before each, by
 * backward probes of messages_conversation_seq_idx), less their own there (their `sender_ordinal`s
 * likewise, by messages_conversation_sender_idx), less the unsent ones of others there (the
 * partial messages_unsent_idx: few), less the others' they deleted for themselves there (their
 * hidden rows in the conversation, by message_hidden_conversation_idx: few). Read by nothing but the model's checks until the next
 * release has numbered what older nodes stored; then the list and the totals move to it.
 */
export const unreadFromOrdinalsSql = (member: string, head: string) => {
  const end = `coalesce(${member}.left_seq, ${head}.last_seq)`;
  const start = `${member}.read_seq`;
  const at = (bound: string, column: 'ordinal' | 'sender_ordinal') => `coalesce((select o.${column} from messages o
    where o.conversation_id = ${member}.conversation_id${column === 'sender_ordinal' ? ` and o.sender_id = ${member}.user_id` : ''}
      and o.seq <= ${bound} order by o.seq desc limit 1), 0)`;
  return `(case when ${head}.last_message_seq > ${start} then (
    ${at(end, 'ordinal')} - ${at(start, 'ordinal')} - ${at(end, 'sender_ordinal')} + ${at(start, 'sender_ordinal')}
    - (select count(*) from messages x where x.conversation_id = ${member}.conversation_id and x.deleted_at is not null
        and x.seq > ${start} and x.seq <= ${end} and x.sender_id <> ${member}.user_id)
    - (select count(*) from message_hidden h join messages x on x.id = h.message_id
        where h.user_id = ${member}.user_id and h.conversation_id = ${member}.conversation_id
          and x.seq > ${start} and x.seq <= ${end} and x.sender_id <> ${member}.user_id and x.deleted_at is null)
  )::int else 0 end)`;
};

/**
 * One page of the user's conversations, newest last message first, keyset by last_message_id
 * (unique per user: a message belongs to one pair); each row shows its newest message the user
 * has not deleted for themselves. People whose accounts are inactive are left out, as
 * everywhere, except deleted accounts (the conversation is the user's record too); so are
 * people the user blocked (the unread total leaves them out the same way: messages.ts).
 * Served by conversations_recent_idx, then primary-key lookups per row. `readReceipts`: the
 * user's setting (a receipt also needs the peer's).
 */
export async function listConversations(
  db: Db,
  userId: number,
  beforeMessageId: number | null,
  limit: number,
  readReceipts: boolean,
): Promise<KeysetPage<Conversation, number>> {
  const rows = await db
    .select({
      ...messageColumns,
      user: userSummaryColumns(userId),
      unreadCount: conversations.unreadCount,
      muted: conversations.muted,
      lastMessageId: conversations.lastMessageId,
      peerReceipts: users.readReceipts,
    })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.peerId))
    .innerJoin(messages, eq(messages.id, shownMessageId))
    .leftJoin(uploads, attachmentOf)
    .where(
      and(
        eq(conversations.userId, userId),
        or(eq(users.isActive, true), isNotNull(users.deletedAt)),
        sql`not ${hasBlocked(userId, sql`${conversations.peerId}`)}`,
        beforeMessageId === null ? undefined : lt(conversations.lastMessageId, beforeMessageId),
      ),
    )
    .orderBy(desc(conversations.lastMessageId))
    .limit(limit + 1);
  const page = toKeysetPage(rows, limit, (row) => row.lastMessageId);
  return {
    results: page.results.map((row) => ({
      user: row.user,
      last_message: toMessagePayload(row, userId, readReceipts && row.peerReceipts),
      unread_count: row.unreadCount,
      muted: row.muted,
    })),
    next: page.next,
  };
}

/**
 * Mutes or unmutes the user's conversation with peerId; null when they have none. The
 * conversation model gets it too: the member's mute, and a `muted` item at the account's next
 * seq when it changed (the account's row locked first, as every writer of its seqs locks it),
 * answered for protocol 2's devices (null when it was already so).
 */
export async function setMuted(db: Db, userId: number, peerId: number, muted: boolean): Promise<{ item: AccountItem | null } | null> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [userId]);
    const updated = await tx
      .update(conversations)
      .set({ muted })
      .where(and(eq(conversations.userId, userId), eq(conversations.peerId, peerId)))
      .returning({ peerId: conversations.peerId });
    if (updated.length === 0) return null;
    const [item] = await rows<{ seq: string | number; conversation_id: string | number }>(
      tx,
      sql`
      with member as (
        update conversation_members set muted = ${muted}
        where conversation_id = (select conversation_id from account_conversations where user_id = ${userId} and peer_id = ${peerId})
          and user_id = ${userId} and muted <> ${muted}
        returning conversation_id
      ), account as (
        update users set account_seq = account_seq + 1 where id = ${userId} and exists (select 1 from member)
        returning account_seq
      )
      insert into account_events (user_id, seq, conversation_id, kind, state)
      select ${userId}, account.account_seq, member.conversation_id, 'muted', jsonb_build_object('muted', ${muted}::boolean)
      from member, account
      returning seq, conversation_id`,
    );
    return { item: item ? { seq: Number(item.seq), conversation_id: Number(item.conversation_id), kind: 'muted', muted } : null };
  });
}

/** The user has a conversation with peerId (a message went either way: both get a list row). */
export async function hasConversation(db: Db, userId: number, peerId: number): Promise<boolean> {
  const [row] = await db
    .select({ peerId: accountConversations.peerId })
    .from(accountConversations)
    .where(and(eq(accountConversations.userId, userId), eq(accountConversations.peerId, peerId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Marks the user's conversations (with one person, or all of them) changed by this transaction,
 * so that `sync_account` names them again (delivery/account-stream.ts): what a list shows of them
 * moved without a message or a change, because a block began or ended between the two, or the
 * account was deactivated, came back or was deleted. Their heads are reached through the user's
 * own list rows; callers lock the users first, as every writer of heads does.
 */
export async function touchConversations(db: Db, userId: number, peerId?: number): Promise<void> {
  const withPeer = peerId === undefined ? sql`` : sql` and peer_id = ${peerId}`;
  // The heads locked in id order first: two deactivations touching shared heads take them in one order.
  await db.execute(sql`
    update conversations_v2 set changed_xid = pg_current_xact_id()
    where id in (select c.id from conversations_v2 c
      where c.id in (select conversation_id from account_conversations where user_id = ${userId}${withPeer})
      order by c.id for update)`);
}
