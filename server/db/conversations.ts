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
 * account was deactivated, came back or was deleted, or its name or photo changed. Their heads
 * are reached through the user's own list rows; callers lock the users first, as every writer of
 * heads does.
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
