// Socket protocol 1 as a simulated client speaks it (docs/DELIVERY.md): one stream for the account,
// messages sent and received and changes to them by the account's seq; catch-up by `sync` from the
// highest seq held contiguously, after a (re)connect and a gap alike.
import type { Socket } from 'socket.io-client';
import type { ConversationChange, MessageChange, ServerToClientEvents } from '../lib/contract';
import { Inbox, type HeldMessage } from './inbox';
import { wrongShape, type Ask, type Protocol } from './protocol';

const SYNC_PAGE = 200;

export class AccountProtocol implements Protocol {
  readonly inbox: Inbox;
  readonly gapNeedsFull = false;

  constructor(
    private readonly userId: number,
    now: () => number,
    private readonly anomalies: string[],
  ) {
    this.inbox = new Inbox(userId, now);
  }

  listen(socket: Socket, heard: () => void): void {
    const events = socket as unknown as Socket<ServerToClientEvents>;
    events.on('message', (message) => {
      this.hold(message);
      heard();
    });
    events.on('message_sent', (message) => {
      this.hold(message);
      heard();
    });
    events.on('message_change', (change) => {
      this.holdChange(change);
      heard();
    });
    // Protocol 2's alone.
    for (const event of ['account_item', 'seen']) socket.on(event, (payload: unknown) => this.anomalies.push(wrongShape(1, event, payload)));
  }

  hold(message: HeldMessage): void {
    if ('conversation_id' in message) this.anomalies.push(wrongShape(1, 'message', message));
    else this.inbox.add(message);
  }

  /** An ack's change is held like a live one: it is the account's, with its seq. */
  holdAck(change: MessageChange | ConversationChange): void {
    this.holdChange(change);
  }

  private holdChange(change: MessageChange | ConversationChange): void {
    if ('conversation_id' in change) this.anomalies.push(wrongShape(1, 'change', change));
    else this.inbox.addChange(change);
  }

  readPayload(message: HeldMessage): Record<string, number> {
    if ('conversation_id' in message) throw new Error('a protocol 1 client holds no conversation message');
    return { user_id: message.sender_id === this.userId ? message.recipient_id : message.sender_id };
  }

  full(ask: Ask): Promise<boolean> {
    return this.fillGaps(ask);
  }

  /** Pages of `sync` from the contiguous high-water mark. */
  async fillGaps(ask: Ask): Promise<boolean> {
    const { inbox } = this;
    let after = inbox.contiguous;
    for (;;) {
      const page = await ask('sync', { after, limit: SYNC_PAGE });
      if (!page) return false;
      const { messages, changes, through, last_seq: lastSeq, has_more: hasMore } = page;
      for (const message of messages) inbox.add(message, 'sync');
      for (const change of changes) inbox.addChange(change);
      inbox.accountThrough(through);
      if (hasMore) {
        if (through <= after) {
          this.anomalies.push(`sync after ${after}: has_more without moving on (through ${through})`);
          return true;
        }
        after = through;
        continue;
      }
      // last_seq is promised to be a safe place to resume from: nothing at or below it is missing.
      if (inbox.contiguous < lastSeq) {
        this.anomalies.push(`sync after ${after} answered last_seq ${lastSeq} but seq ${inbox.contiguous + 1} is missing`);
      }
      return true;
    }
  }
}
