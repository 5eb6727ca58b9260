// The per-account stream's second kind of item: changes to messages (docs/DELIVERY.md, "Changes
// to messages"). Every change runs in one transaction that locks the accounts it concerns, lowest
// id first (as the message batch does, so neither deadlocks with the other and each account's
// seqs are committed in order), changes the message, then takes each account's next seq and
// writes that account's event row: the same seqs as its messages, so catch-up, the outbox, several
// nodes and a crash cover changes exactly as they cover messages.
import { sql } from 'drizzle-orm';
import type { MessageChange } from '../../lib/contract';
import type { Db } from './open-database';
import { rows } from './raw-rows';

/** An account as a change's transaction locked it. */
export interface LockedAccount {
  id: number;
  lastSeq: number;
  active: boolean;
  deleted: boolean;
  readReceipts: boolean;
}

/** An account row as a locking statement returns it. */
export interface LockedRow {
  id: number;
  last_seq: string | number;
  is_active: boolean;
  deleted: boolean;
  read_receipts: boolean;
}

/** Locks the accounts in one statement, lowest id first; missing ones are absent from the map. */
export async function lockAccounts(tx: Db, ids: readonly number[]): Promise<Map<number, LockedAccount>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const locked = await rows<LockedRow>(
    tx,
    sql`select id, last_seq, is_active, deleted_at is not null as deleted, read_receipts from users
      where id in (${sql.join(sorted.map((id) => sql`${id}`), sql`, `)}) order by id for update`,
  );
  return toLockedAccounts(locked);
}

export function toLockedAccounts(locked: readonly LockedRow[]): Map<number, LockedAccount> {
  return new Map(
    locked.map((row) => [
      Number(row.id),
      { id: Number(row.id), lastSeq: Number(row.last_seq), active: row.is_active, deleted: row.deleted, readReceipts: row.read_receipts },
    ]),
  );
}

/** A change as written for one account, before it has a seq. */
export type ChangeFor = { userId: number } & DistributiveOmit<MessageChange, 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The kinds that change one message's own state, so a client compares them with its version. */
const VERSIONED = new Set<MessageChange['kind']>(['reaction', 'edit', 'unsend']);

/**
 * Gives each change its account's next seq (the accounts must be locked by this transaction:
 * `locked`, updated here), writes the event rows and the accounts' new last_seq, and for a change
 * to one message's state, that side's version of the message. Returns the changes with their seqs,
 * in the order given, read back from the rows as stored: what goes out live and in the ack is then
 * the very object `sync` returns for that seq, down to the order of its keys (jsonb orders them its
 * own way), so a client that meets one seq twice sees one change (docs/DELIVERY.md).
 */
export async function appendChanges(
  tx: Db,
  locked: Map<number, LockedAccount>,
  message: { id: number; senderId: number },
  changes: readonly ChangeFor[],
): Promise<(MessageChange & { userId: number })[]> {
  if (changes.length === 0) return [];
  const numbered = changes.map((change) => {
    const account = locked.get(change.userId);
    if (!account) throw new Error(`account ${change.userId} is not locked by this change`);
    account.lastSeq += 1;
    return { ...change, seq: account.lastSeq };
  });
  const versioned = numbered.filter((change) => VERSIONED.has(change.kind));
  const senderSeq = versioned.find((change) => change.userId === message.senderId)?.seq ?? null;
  const recipientSeq = versioned.find((change) => change.userId !== message.senderId)?.seq ?? null;
  const seqs = new Map(numbered.map((change) => [change.userId, change.seq]));
  // One statement: the event rows, the accounts' last_seq and the message's versions.
  const stored = await rows<{ user_id: number; seq: string | number; kind: string; message_id: string | number; state: Record<string, unknown> }>(
    tx,
    sql`with stored as (
        insert into message_events (user_id, seq, kind, message_id, state)
        values ${sql.join(
          numbered.map(({ userId, seq, kind, message_id: messageId, ...state }) => sql`(${userId}::int, ${seq}::bigint, ${kind}, ${messageId}::bigint, ${JSON.stringify(state)}::jsonb)`),
          sql`, `,
        )}
        returning user_id, seq, kind, message_id, state
      ), accounts as (
        update users set last_seq = v.seq
        from (values ${sql.join([...seqs].map(([id, seq]) => sql`(${id}::int, ${seq}::bigint)`), sql`, `)}) as v(id, seq)
        where users.id = v.id
      )${
        versioned.length > 0
          ? sql`, versions as (
        update messages set
          sender_version = coalesce(${senderSeq}::bigint, sender_version),
          recipient_version = coalesce(${recipientSeq}::bigint, recipient_version)
        where id = ${message.id}
      )`
          : sql``
      }
      select * from stored`,
  );
  // Matched by (account, seq): RETURNING promises no order.
  const byKey = new Map(stored.map((row) => [`${row.user_id}:${Number(row.seq)}`, row]));
  const written = numbered.map(({ userId, seq }) => {
    const row = byKey.get(`${userId}:${seq}`)!;
    return { userId, ...toMessageChange({ seq: Number(row.seq), kind: row.kind, messageId: Number(row.message_id), state: row.state }) };
  });
  return written;
}

/** The change without the account it is addressed to: what that account's sockets get. */
export function forAccount(change: MessageChange & { userId: number }): MessageChange {
  const { userId, ...rest } = change;
  void userId;
  return rest as MessageChange;
}

/** A stored event row as the account it belongs to sees it. */
export function toMessageChange(row: { seq: number; kind: string; messageId: number; state: Record<string, unknown> }): MessageChange {
  return { ...row.state, kind: row.kind, seq: row.seq, message_id: row.messageId } as MessageChange;
}
