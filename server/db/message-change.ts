// What every change to one message shares (react, edit, unsend, hide: message-changes.ts): find the
// message among the caller's own, lock the accounts it concerns, read it again under the locks,
// refuse what may not be done, and hand the change to the stream (change-stream.ts).
import { eq, sql } from 'drizzle-orm';
import type { MessageChange } from '../../lib/contract';
import { toLockedAccounts, type LockedAccount, type LockedRow } from './change-stream';
import type { Db } from './open-database';
import { rows } from './raw-rows';
import { blockedEitherWay } from './safety-rules';
import { messages, users, type MessageRow } from './schema';

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
    // Two statements before the work: the accounts, locked through the message (none when it is
    // not the caller's), then the message as it is under those locks with what the rules need.
    const locked = await rows<LockedRow & { sender_id: number; recipient_id: number }>(
      tx,
      sql`select u.id, u.last_seq, u.is_active, u.deleted_at is not null as deleted, u.read_receipts, m.sender_id, m.recipient_id
        from messages m join users u on u.id in (m.sender_id, m.recipient_id)
        where m.id = ${messageId} and ${actorId} in (m.sender_id, m.recipient_id) ${lockPeer ? sql`` : sql`and u.id = ${actorId}`}
        order by u.id for update of u`,
    );
    const sides = locked[0];
    if (!sides) return { refused: 'not_found' };
    const own = sides.sender_id === actorId;
    const peerId = own ? sides.recipient_id : sides.sender_id;
    const [found] = await tx
      .select({
        message: messages,
        hidden: sql<boolean>`exists (select 1 from message_hidden h where h.user_id = ${actorId} and h.message_id = ${messageId})`,
        blocked: blockedEitherWay(actorId, peerId),
        now: sql<Date | string>`now()`,
        active: users.isActive,
        deleted: sql<boolean>`${users.deletedAt} is not null`,
        receipts: users.readReceipts,
      })
      .from(messages)
      .innerJoin(users, eq(users.id, peerId))
      .where(eq(messages.id, messageId));
    if (!found || !(found.active || found.deleted)) return { refused: 'not_found' };
    if (found.hidden) return hiding ? unchanged() : { refused: 'not_found' };
    return work({
      tx,
      locked: toLockedAccounts(locked),
      message: found.message,
      actorId,
      peerId,
      own,
      now: new Date(found.now),
      blocked: found.blocked,
      peer: { active: found.active, deleted: found.deleted, readReceipts: found.receipts },
    });
  });
}

/** Still inside its window (ms after it was sent), by the database's clock. */
export const withinWindow = ({ message, now }: ChangeContext, windowMs: number) => now.getTime() - message.createdAt.getTime() <= windowMs;
