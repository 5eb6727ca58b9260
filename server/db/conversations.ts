import { and, eq, sql } from 'drizzle-orm';
import type { AccountItem } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { lockUsersInOrder } from './safety-rules';
import { conversations } from './schema';

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
