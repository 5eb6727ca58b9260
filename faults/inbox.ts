// What one simulated client holds: its account's messages by seq (sent and received), each once.
import type { MessagePayload } from '../lib/contract';

export class Inbox {
  private readonly bySeq = new Map<number, MessagePayload>();
  private readonly seqById = new Map<number, number>();
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
    this.highest = Math.max(this.highest, message.seq);
    while (this.bySeq.has(this.contiguous + 1)) this.contiguous++;
    return true;
  }

  get hasGap(): boolean {
    return this.highest > this.contiguous;
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
