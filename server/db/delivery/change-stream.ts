// The pair model's per-account stream of changes to messages: an event row at each concerned
// account's next seq, written in the change's own transaction (change-batch.ts) for the release
// before this one, which may still run during a deploy; nothing reads it now (docs/design/
// conversations.md 5, step 9 (c) stops writing it).
import type { MessageChange } from '../../../lib/contract';

/** A change as written for one account, before it has a seq. */
export type ChangeFor = { userId: number } & DistributiveOmit<MessageChange, 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A stored event row as the account it belongs to sees it. */
export function toMessageChange(row: { seq: number; kind: string; messageId: number; state: Record<string, unknown> }): MessageChange {
  return { ...row.state, kind: row.kind, seq: row.seq, message_id: row.messageId } as MessageChange;
}
