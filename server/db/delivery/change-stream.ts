// The per-account stream's second kind of item: changes to messages (docs/DELIVERY.md, "Changes
// to messages"). Each is an event row at the account's next seq, written in the change's own
// transaction (change-batch.ts): the same seqs as its messages, so catch-up, the outbox, several
// nodes and a crash cover changes exactly as they cover messages.
import type { MessageChange } from '../../../lib/contract';

/** A change as written for one account, before it has a seq. */
export type ChangeFor = { userId: number } & DistributiveOmit<MessageChange, 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A stored event row as the account it belongs to sees it. */
export function toMessageChange(row: { seq: number; kind: string; messageId: number; state: Record<string, unknown> }): MessageChange {
  return { ...row.state, kind: row.kind, seq: row.seq, message_id: row.messageId } as MessageChange;
}
