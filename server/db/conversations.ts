import { sql, type SQL } from 'drizzle-orm';
import type { AccountItem } from '../../lib/contract';
import type { Db } from './engine/open-database';
import { rows } from './engine/raw-rows';
import { lockUsersInOrder } from './safety-rules';

export interface MuteChange {
  conversationId: number;
  /** The other person of a direct conversation (null in a group). */
  peerId: number | null;
  /** The account's `muted` item for protocol 2's devices; null when it was already so. */
  item: AccountItem | null;
}

/** Mutes or unmutes the user's direct conversation with `peerId`: setMutedWhere's. */
export function setMuted(db: Db, userId: number, peerId: number, muted: boolean): Promise<MuteChange | null> {
  return setMutedWhere(db, userId, sql`ac.peer_id = ${peerId}`, muted);
}

/** Mutes or unmutes one of the user's conversations by its id: setMutedWhere's. */
export function setConversationMuted(db: Db, userId: number, conversationId: number, muted: boolean): Promise<MuteChange | null> {
  return setMutedWhere(db, userId, sql`ac.conversation_id = ${conversationId}`, muted);
}

/**
 * Mutes or unmutes the conversation of the user's list rows (`ac`) that `named` picks, if they are
 * a member of it now; null when there is none (never written to, someone else's, or left). It is
 * the member's mute, with a `muted` item at the account's next seq when it changed (the account's
 * row locked first, as every writer of its seqs locks it). Nothing of the pair model: no release
 * still running reads its mute (the list and push read the member row).
 */
async function setMutedWhere(db: Db, userId: number, named: SQL, muted: boolean): Promise<MuteChange | null> {
  return db.transaction(async (tx) => {
    await lockUsersInOrder(tx, [userId]);
    const [found] = await rows<{ conversation_id: string | number; peer_id: number | null; seq: string | number | null }>(
      tx,
      sql`
      with target as (
        select ac.conversation_id, ac.peer_id from account_conversations ac
        join conversation_members m on m.conversation_id = ac.conversation_id and m.user_id = ac.user_id
        where ac.user_id = ${userId} and ${named} and m.left_at is null
      ), member as (
        update conversation_members set muted = ${muted}
        where conversation_id = (select conversation_id from target) and user_id = ${userId} and muted <> ${muted}
        returning conversation_id
      ), account as (
        update users set account_seq = account_seq + 1 where id = ${userId} and exists (select 1 from member)
        returning account_seq
      ), item as (
        insert into account_events (user_id, seq, conversation_id, kind, state)
        select ${userId}, account.account_seq, member.conversation_id, 'muted', jsonb_build_object('muted', ${muted}::boolean)
        from member, account
        returning seq
      )
      select target.conversation_id, target.peer_id, (select seq from item) as seq from target`,
    );
    if (!found) return null;
    const conversationId = Number(found.conversation_id);
    return {
      conversationId,
      peerId: found.peer_id,
      item: found.seq === null ? null : { seq: Number(found.seq), conversation_id: conversationId, kind: 'muted', muted },
    };
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
