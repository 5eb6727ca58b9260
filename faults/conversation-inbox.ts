// What one simulated client holds, in socket protocol 2 (docs/API.md, "Protocol 2's pushes"): each
// of its conversations' streams by the conversation's own seq, messages and changes to them, each
// once; its account's own items by the account's seq, each once; and how far the other person of
// each conversation has read. Each message as the client shows it, for the verdict's comparison
// with the database.
import type { AccountItem, ConversationChange, ConversationMessage, SeenPayload } from '../lib/contract';

/** A message as the client shows it: what the verdict compares with the database's row. */
export interface MessageView {
  text: string;
  deleted: boolean;
  reactions: string;
  /** A sent message shows "Seen" (a receipt arrived for it). */
  seen: boolean;
}

/** A stream numbered 1, 2, 3… with no gaps: what each seq is, and how far it is whole. */
class Numbered<T> {
  readonly bySeq = new Map<number, T>();
  /** Seqs a sync page accounted for without an item (left out on purpose by the server). */
  readonly skipped = new Set<number>();
  contiguous = 0;
  highest = 0;

  holds(seq: number): boolean {
    return this.bySeq.has(seq) || this.skipped.has(seq);
  }

  note(seq: number): void {
    this.highest = Math.max(this.highest, seq);
    while (this.holds(this.contiguous + 1)) this.contiguous++;
  }

  get hasGap(): boolean {
    return this.highest > this.contiguous;
  }
}

type Item = { message: ConversationMessage } | { change: ConversationChange };

/** How far one stream held is whole, for the verdict. */
export interface StreamState {
  /** Items held (messages and changes, or account items). */
  held: number;
  contiguous: number;
  highest: number;
}

export class ConversationInbox {
  private readonly streams = new Map<number, Numbered<Item>>();
  /** Where each message is held: its conversation and its seq there. */
  private readonly places = new Map<number, { conversationId: number; seq: number }>();
  private readonly items = new Numbered<AccountItem>();
  /** By conversation: the highest seq the other person has read, as far as this client heard. */
  private readonly receipts = new Map<number, number>();
  /** When each message first arrived (the test's clock), by id. */
  readonly arrivedAt = new Map<number, number>();
  /** How each message first arrived: a live event or ack, or a sync page. */
  readonly arrivedVia = new Map<number, 'live' | 'sync'>();
  readonly anomalies: string[] = [];
  /** Copies received of something already held, dropped. */
  redundant = 0;
  /** Messages from others that first arrived through a sync: their live event was lost. */
  receivedBySync = 0;

  constructor(
    readonly userId: number,
    private readonly now: () => number = Date.now,
  ) {}

  private stream(conversationId: number): Numbered<Item> {
    let stream = this.streams.get(conversationId);
    if (!stream) this.streams.set(conversationId, (stream = new Numbered()));
    return stream;
  }

  /** Names what a conversation's seq already holds, for an anomaly; null when nothing is there. */
  private occupant(conversationId: number, seq: number): string | null {
    const stream = this.streams.get(conversationId);
    const held = stream?.bySeq.get(seq);
    if (held) return 'message' in held ? `message ${held.message.id}` : `a ${held.change.kind} change`;
    return stream?.skipped.has(seq) ? 'a seq a sync page left out' : null;
  }

  /** Adds a message (live, an ack or a sync page); true when it was new. */
  add(message: ConversationMessage, via: 'live' | 'sync' = 'live'): boolean {
    const { id, conversation_id: conversationId, seq } = message;
    const place = this.places.get(id);
    if (place) {
      if (place.conversationId !== conversationId || place.seq !== seq) {
        this.anomalies.push(`message ${id} arrived as conversation ${place.conversationId} seq ${place.seq} and conversation ${conversationId} seq ${seq}`);
      }
      this.redundant++;
      return false;
    }
    const other = this.occupant(conversationId, seq);
    if (other) {
      this.anomalies.push(`conversation ${conversationId} seq ${seq} is ${other} and message ${id}`);
      return false;
    }
    const stream = this.stream(conversationId);
    stream.bySeq.set(seq, { message });
    this.places.set(id, { conversationId, seq });
    this.arrivedAt.set(id, this.now());
    this.arrivedVia.set(id, via);
    if (via === 'sync' && message.sender_id !== this.userId) this.receivedBySync++;
    stream.note(seq);
    return true;
  }

  /** Adds a change (live or a sync page); true when it was new. A seq already held is a copy. */
  addChange(change: ConversationChange): boolean {
    const { conversation_id: conversationId, seq } = change;
    const stream = this.stream(conversationId);
    const held = stream.bySeq.get(seq);
    if (held && 'change' in held) {
      // Compared as JSON: the server sends every copy of a seq as the one row it stored.
      const [first, second] = [JSON.stringify(held.change), JSON.stringify(change)];
      if (first !== second) this.anomalies.push(`conversation ${conversationId} seq ${seq} is two different changes: ${first} then ${second}`);
      this.redundant++;
      return false;
    }
    const other = this.occupant(conversationId, seq);
    if (other) {
      this.anomalies.push(`conversation ${conversationId} seq ${seq} is ${other} and a ${change.kind} change`);
      return false;
    }
    const place = this.places.get(change.message_id);
    if (place && place.conversationId !== conversationId) {
      this.anomalies.push(`a ${change.kind} change in conversation ${conversationId} names message ${change.message_id} of conversation ${place.conversationId}`);
    }
    stream.bySeq.set(seq, { change });
    stream.note(seq);
    return true;
  }

  /** A sync page said every seq of the conversation up to `through` is accounted for. */
  accountThrough(conversationId: number, through: number): void {
    const stream = this.stream(conversationId);
    for (let seq = stream.contiguous + 1; seq <= through; seq++) if (!stream.holds(seq)) stream.skipped.add(seq);
    stream.note(through);
  }

  /** Adds one of the account's own items (live or from `sync_account`); true when it was new. */
  addItem(item: AccountItem): boolean {
    const held = this.items.bySeq.get(item.seq);
    if (held) {
      // A hide's preview is the conversation's newest message as it is when read, so it may differ between copies.
      const [first, second] = [JSON.stringify({ ...held, preview: undefined }), JSON.stringify({ ...item, preview: undefined })];
      if (first !== second) this.anomalies.push(`account seq ${item.seq} is two different items: ${first} then ${second}`);
      this.redundant++;
      return false;
    }
    this.items.bySeq.set(item.seq, item);
    this.items.note(item.seq);
    return true;
  }

  /** A receipt: live (`seen`), or a thread page's position of the other person. */
  addSeen(seen: Pick<SeenPayload, 'conversation_id' | 'user_id' | 'seq'>): void {
    if (seen.user_id === this.userId) {
      this.anomalies.push(`a receipt of user ${this.userId}'s own read reached them: ${JSON.stringify(seen)}`);
      return;
    }
    this.receipts.set(seen.conversation_id, Math.max(seen.seq, this.receipts.get(seen.conversation_id) ?? 0));
  }

  /** The highest seq of the conversation up to which everything is held (0: none). */
  contiguousOf(conversationId: number): number {
    return this.streams.get(conversationId)?.contiguous ?? 0;
  }

  /** Conversations with a seq missing below one held. */
  gaps(): number[] {
    return [...this.streams].flatMap(([id, stream]) => (stream.hasGap ? [id] : []));
  }

  /** An account item skipped a seq: only `sync_account` fills it. */
  get hasItemGap(): boolean {
    return this.items.hasGap;
  }

  get hasGap(): boolean {
    return this.hasItemGap || this.gaps().length > 0;
  }

  /** Each conversation held, how far it is whole. */
  conversationStates(): Map<number, StreamState> {
    return new Map([...this.streams].map(([id, stream]) => [id, { held: stream.bySeq.size, contiguous: stream.contiguous, highest: stream.highest }]));
  }

  /** The account's own items held, how far they are whole. */
  get itemState(): StreamState {
    return { held: this.items.bySeq.size, contiguous: this.items.contiguous, highest: this.items.highest };
  }

  /** Where a message is held, if it is. */
  placeOf(messageId: number): { conversationId: number; seq: number } | undefined {
    return this.places.get(messageId);
  }

  hasMessage(messageId: number): boolean {
    return this.places.has(messageId);
  }

  /** Conversations where one of this user's messages still shows no receipt (unsent ones never do). */
  unseenConversations(): number[] {
    const unseen = new Set<number>();
    for (const [id, view] of this.views()) {
      const place = this.places.get(id)!;
      const message = this.message(place.conversationId, place.seq);
      if (message.sender_id === this.userId && !view.seen && !view.deleted) unseen.add(place.conversationId);
    }
    return [...unseen];
  }

  private message(conversationId: number, seq: number): ConversationMessage {
    const held = this.streams.get(conversationId)!.bySeq.get(seq)!;
    return (held as { message: ConversationMessage }).message;
  }

  /** How many changes are held, over every conversation. */
  get changeCount(): number {
    return [...this.streams.values()].reduce((n, stream) => n + [...stream.bySeq.values()].filter((item) => 'change' in item).length, 0);
  }

  get size(): number {
    return this.places.size;
  }

  /** Every message held, by conversation and seq. */
  messages(): ConversationMessage[] {
    return [...this.streams.keys()]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const stream = this.streams.get(id)!;
        return [...stream.bySeq.keys()].sort((a, b) => a - b).flatMap((seq) => {
          const held = stream.bySeq.get(seq)!;
          return 'message' in held ? [held.message] : [];
        });
      });
  }

  /** Messages from others, by conversation and seq. */
  received(): ConversationMessage[] {
    return this.messages().filter((message) => message.sender_id !== this.userId);
  }

  /**
   * Every message held as the client shows it: its payload, then each change of its conversation
   * in seq order where it is newer than what the copy reflects (its version); one of this user's
   * own shows "Seen" once the other person's read reached its seq (a deleted one never does).
   */
  views(): Map<number, MessageView> {
    const views = new Map<number, MessageView>();
    for (const [conversationId, stream] of this.streams) {
      const shown = new Map<number, ConversationMessage>();
      const changes: ConversationChange[] = [];
      for (const held of stream.bySeq.values()) {
        if ('message' in held) shown.set(held.message.id, held.message);
        else changes.push(held.change);
      }
      for (const change of changes.sort((a, b) => a.seq - b.seq)) {
        const message = shown.get(change.message_id);
        if (!message || message.version >= change.seq) continue;
        if (change.kind === 'reaction') shown.set(message.id, { ...message, reactions: change.reactions, version: change.seq });
        else if (change.kind === 'edit') shown.set(message.id, { ...message, text: change.text, version: change.seq });
        else if (change.kind === 'unsend') shown.set(message.id, { ...message, text: '', deleted: true, reactions: [], version: change.seq });
      }
      const readTo = this.receipts.get(conversationId) ?? 0;
      for (const message of shown.values()) {
        views.set(message.id, {
          text: message.text,
          deleted: message.deleted,
          reactions: JSON.stringify(message.reactions),
          seen: message.sender_id === this.userId && message.seq <= readTo && !message.deleted,
        });
      }
    }
    return views;
  }
}
