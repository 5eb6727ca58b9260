// What every change to one message shares (react, edit, unsend, hide: message-changes.ts): find the
// message among the caller's own, lock the accounts it concerns, read it again under the locks,
// refuse what may not be done, and hand the change to the stream (change-stream.ts).
import { eq, sql } from 'drizzle-orm';
import type { MessageChange } from '../../lib/contract';
import { lockAccounts, type LockedAccount } from './change-stream';
import type { Db } from './open-database';
import { rows } from './raw-rows';
import { blockedEitherWay } from './safety-rules';
import { messages, type MessageRow } from './schema';

/**
 * Why a change was refused: the message is not one of the caller's (or they deleted it for
 * themselves, or the other side's account is deactivated: invisible), the caller did not send it,
 * it was unsent, its window is over, the two may not message each other (a block either way, or a
 * deleted account), its text would be empty, or the caller has put too many reactions on it.
 */
export type ChangeRefusal = 'not_found' | 'not_yours' | 'deleted' | 'too_late' | 'not_allowed' | 'empty' | 'too_many';

export type AccountChange = MessageChange & { userId: number };

export type ChangeOutcome =
  | { refused: ChangeRefusal }
  | {
      /** One per account concerned, each at that account's seq; empty when it was already so. */
      changes: AccountChange[];
      /** Accounts whose unread total moved, with the new total (to send as message_count). */
      unreadTotals: Map<number, number>;
      /** A file no message carries any more: removed from storage once the transaction committed. */
      removedStorageKey?: string;
    };

export const unchanged = (): ChangeOutcome => ({ changes: [], unreadTotals: new Map() });

/** The message and the caller's relation to it, read under the accounts' locks. */
export interface ChangeContext {
  tx: Db;
  locked: Map<number, LockedAccount>;
  message: MessageRow;
  actorId: number;
  peerId: number;
  /** The caller sent it. */
  own: boolean;
  /** The database's clock at this transaction's start (windows are measured with it). */
  now: Date;
  /** A block either way between the two. */
  blocked: boolean;
  /** The other person's account: active, deleted (a tombstone), or neither (deactivated). */
  peer: { active: boolean; deleted: boolean; readReceipts: boolean };
}

export interface ChangeOptions {
  /** The change concerns both sides (it goes into both streams): both accounts are locked, not only the caller's. */
  lockPeer: boolean;
  /** Deleting for oneself again: a message the caller already hid is "already so", not missing. */
  hiding?: boolean;
}

/**
 * Runs `work` on message `messageId` for `actorId` in one transaction, after locking the accounts
 * the change concerns, lowest id first, as a message batch locks them. Someone else's message is
 * refused exactly like a missing one, and so is one the caller deleted for themselves or one with
 * a deactivated account (deleted accounts stay: their conversations do).
 */
export async function changeMessage(
  db: Db,
  actorId: number,
  messageId: number,
  { lockPeer, hiding = false }: ChangeOptions,
  work: (context: ChangeContext) => Promise<ChangeOutcome>,
): Promise<ChangeOutcome> {
  return db.transaction(async (tx) => {
    const [sides] = await tx
      .select({ senderId: messages.senderId, recipientId: messages.recipientId })
      .from(messages)
      .where(eq(messages.id, messageId));
    if (!sides || (sides.senderId !== actorId && sides.recipientId !== actorId)) return { refused: 'not_found' };
    const own = sides.senderId === actorId;
    const peerId = own ? sides.recipientId : sides.senderId;
    const locked = await lockAccounts(tx, lockPeer ? [actorId, peerId] : [actorId]);
    const [state] = await rows<{ hidden: boolean; blocked: boolean; now: Date | string; active: boolean; deleted: boolean; receipts: boolean }>(
      tx,
      sql`select exists (select 1 from message_hidden h where h.user_id = ${actorId} and h.message_id = ${messageId}) as hidden,
        ${blockedEitherWay(actorId, peerId)} as blocked, now() as now,
        p.is_active as active, p.deleted_at is not null as deleted, p.read_receipts as receipts
        from users p where p.id = ${peerId}`,
    );
    const [message] = await tx.select().from(messages).where(eq(messages.id, messageId));
    if (!state || !message || !(state.active || state.deleted)) return { refused: 'not_found' };
    if (state.hidden) return hiding ? unchanged() : { refused: 'not_found' };
    return work({
      tx,
      locked,
      message,
      actorId,
      peerId,
      own,
      now: new Date(state.now),
      blocked: state.blocked,
      peer: { active: state.active, deleted: state.deleted, readReceipts: state.receipts },
    });
  });
}

/** Still inside its window (ms after it was sent), by the database's clock. */
export const withinWindow = ({ message, now }: ChangeContext, windowMs: number) => now.getTime() - message.createdAt.getTime() <= windowMs;
