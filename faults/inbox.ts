// What one simulated client holds: its account's stream by seq, messages (sent and received) and
// changes to them, each once, and each message as the client shows it with the changes applied.
// A client of socket protocol 2 holds its conversations instead (conversation-inbox.ts).
import type { ConversationMessage, MessageChange, MessagePayload } from '../lib/contract';

/** A message as either protocol's client holds it: protocol 1's copy by the account's seq, or protocol 2's by its conversation's. */
export type HeldMessage = MessagePayload | ConversationMessage;

/** A message as the client shows it: what the verdict compares with the database's row. */
export interface MessageView {
  text: string;
  deleted: boolean;
  reactions: string;
  /** A sent message shows "Seen" (a receipt arrived for it). */
  seen: boolean;
}

export class Inbox {
  private readonly bySeq = new Map<number, MessagePayload>();
  private readonly seqById = new Map<number, number>();
  /** Changes held, by seq (the same numbering as the messages). */
  private readonly changes = new Map<number, MessageChange>();
  /** Seqs a sync accounted for without returning them (items that no longer concern the account). */
  private readonly skipped = new Set<number>();
  /** When each message first arrived, by id (for catch-up times). */
  readonly arrivedAt = new Map<number, number>();
  /** How each message first arrived, by id: a live event (or the send's ack) or a sync page. */
  readonly arrivedVia = new Map<number, 'live' | 'sync'>();
  /** Every seq from 1 to this is held: nothing up to it was missed. */
  contiguous = 0;
  /** The highest seq seen; above `contiguous` means a gap. */
  highest = 0;
  /** Copies of messages already held (live event and sync overlapping): normal, dropped. */
  redundant = 0;
  /** Messages to this user that first came through a sync: their live event never arrived. */
  receivedBySync = 0;
  /** Protocol violations: one message at two seqs, two messages at one seq. */
  readonly anomalies: string[] = [];

  constructor(
    readonly userId: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a message the server sent (event, send ack or sync page); true when it was new. */
  add(message: MessagePayload, via: 'live' | 'sync' = 'live'): boolean {
    const heldSeq = this.seqById.get(message.id);
    if (heldSeq !== undefined) {
      if (heldSeq !== message.seq) this.anomalies.push(`message ${message.id} arrived as seq ${heldSeq} and ${message.seq}`);
      this.redundant++;
      return false;
    }
    const other = this.bySeq.get(message.seq);
    if (other) {
      this.anomalies.push(`seq ${message.seq} is message ${other.id} and message ${message.id}`);
      return false;
    }
    if (message.sender_id !== this.userId && message.recipient_id !== this.userId) {
      this.anomalies.push(`message ${message.id} is neither from nor to user ${this.userId}`);
      return false;
    }
    this.bySeq.set(message.seq, message);
    this.seqById.set(message.id, message.seq);
    this.arrivedAt.set(message.id, this.now());
    this.arrivedVia.set(message.id, via);
    if (via === 'sync' && message.recipient_id === this.userId) this.receivedBySync++;
    this.note(message.seq);
    return true;
  }

  /** Adds a change (live, an ack or a sync page); true when it was new. A seq already held is a copy. */
  addChange(change: MessageChange): boolean {
    const held = this.changes.get(change.seq);
    if (held) {
      // Compared as JSON, key order included: the server sends every copy of a seq as one object.
      const [first, second] = [JSON.stringify(held), JSON.stringify(change)];
      if (first !== second) this.anomalies.push(`seq ${change.seq} is two different changes: ${first} then ${second}`);
      this.redundant++;
      return false;
    }
    const message = this.bySeq.get(change.seq);
    if (message) {
      this.anomalies.push(`seq ${change.seq} is message ${message.id} and a ${change.kind} change`);
      return false;
    }
    this.changes.set(change.seq, change);
    this.note(change.seq);
    return true;
  }

  /** A sync page said every seq up to `through` is accounted for. */
  accountThrough(through: number): void {
    for (let seq = this.contiguous + 1; seq <= through; seq++) if (!this.holds(seq)) this.skipped.add(seq);
    this.note(through);
  }

  private holds(seq: number): boolean {
    return this.bySeq.has(seq) || this.changes.has(seq) || this.skipped.has(seq);
  }

  private note(seq: number): void {
    this.highest = Math.max(this.highest, seq);
    while (this.holds(this.contiguous + 1)) this.contiguous++;
  }

  /** How many changes are held. */
  get changeCount(): number {
    return this.changes.size;
  }

  /**
   * Every message held as the client shows it: its payload, then each change held in seq order
   * where it is newer than what the copy reflects (its version), the receipts up to the message
   * they name. Applying one twice would change nothing, which is the point being checked.
   */
  views(): Map<number, MessageView> {
    const shown = new Map<number, MessagePayload>();
    for (const message of this.bySeq.values()) shown.set(message.id, message);
    for (const change of [...this.changes.values()].sort((a, b) => a.seq - b.seq)) {
      if (change.kind === 'seen') {
        for (const [id, message] of shown) {
          if (message.sender_id === this.userId && message.recipient_id === change.peer_id && id <= change.message_id && message.read_at === null) {
            shown.set(id, { ...message, read_at: change.read_at });
          }
        }
        continue;
      }
      const message = shown.get(change.message_id);
      if (!message || message.version >= change.seq) continue;
      if (change.kind === 'reaction') shown.set(message.id, { ...message, reactions: change.reactions, version: change.seq });
      else if (change.kind === 'edit') shown.set(message.id, { ...message, text: change.text, version: change.seq });
      else if (change.kind === 'unsend') shown.set(message.id, { ...message, text: '', deleted: true, reactions: [], version: change.seq });
    }
    return new Map(
      [...shown].map(([id, message]) => [
        id,
        {
          text: message.text,
          deleted: message.deleted,
          reactions: JSON.stringify(message.reactions),
          seen: message.sender_id === this.userId && message.read_at !== null && !message.deleted,
        },
      ]),
    );
  }

  get hasGap(): boolean {
    return this.highest > this.contiguous;
  }

  hasMessage(messageId: number): boolean {
    return this.seqById.has(messageId);
  }

  get size(): number {
    return this.bySeq.size;
  }

  /** Everything held, by seq. */
  messages(): MessagePayload[] {
    return [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Messages addressed to this user, by seq. */
  received(): MessagePayload[] {
    return this.messages().filter((message) => message.recipient_id === this.userId);
  }
}
