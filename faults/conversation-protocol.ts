// Socket protocol 2 as a simulated client speaks it (docs/API.md, "Protocol 2's pushes", `sync_account`
// and `sync_conversation`): what it holds, which pushes it hears, how it catches up. Each
// conversation's stream by its own seq, and the account's own items. Catch-up: what moved for the
// account since its cursor, then each conversation named read from the highest seq held
// contiguously; a gap in one conversation is filled by reading that conversation alone. The
// receipts, which no catch-up read carries, come from the thread pages.
import type { Socket } from 'socket.io-client';
import type { AccountItem, AccountSyncResult, ClientToServerEvents, ConversationChange, ConversationMessage, ConversationSyncResult, ConversationThreadPage, ServerToClientEvents } from '../lib/contract';
import type { SyncAccountPayload, SyncConversationPayload } from '../lib/contract/schemas';
import { ConversationInbox } from './conversation-inbox';

/** A page of either read: one read of the server's (its `sync` budget counts reads of up to 100 items). */
const PAGE = 100;
const RECEIPT_TRIES = 5;
const RECEIPT_RETRY_MS = 500;

/**
 * Asks on the current connection until answered: the answer, or null once the connection ended
 * (or the server refused the question, which the asker records as an anomaly).
 */
export interface Ask {
  (event: 'sync_account', payload: SyncAccountPayload): Promise<AccountSyncResult | null>;
  (event: 'sync_conversation', payload: SyncConversationPayload): Promise<ConversationSyncResult | null>;
}

/** A push in protocol 1's shape, or an event only protocol 1 has: the server must never send one to a protocol 2 socket. */
const protocol1 = (what: string, payload: unknown) => `got a ${what} of protocol 1: ${JSON.stringify(payload)}`;

export class ConversationProtocol {
  readonly inbox: ConversationInbox;
  /**
   * Where `sync_account` goes on from. Taken on the first connection, before any traffic, and moved
   * only once every conversation it named has been read: a connection lost in between reads the
   * same again (a conversation named twice is harmless), never less.
   */
  private cursor: string | null = null;
  readonly stats = { accountRequests: 0, conversationRequests: 0, receiptReads: 0 };

  constructor(
    userId: number,
    now: () => number,
    private readonly anomalies: string[],
  ) {
    this.inbox = new ConversationInbox(userId, now);
  }

  /** Listens to the pushes; `heard` runs after each (the client then looks for a gap). */
  listen(socket: Socket<ServerToClientEvents, ClientToServerEvents>, heard: () => void): void {
    socket.on('message', (message) => {
      this.hold(message);
      heard();
    });
    socket.on('message_sent', (message) => {
      this.hold(message);
      heard();
    });
    socket.on('message_change', (change) => {
      this.holdChange(change);
      heard();
    });
    socket.on('account_item', (item) => {
      this.inbox.addItem(item);
      heard();
    });
    socket.on('seen', (seen) => this.inbox.addSeen(seen));
    // Protocol 1's alone: the `read` item replaces it.
    (socket as unknown as Socket).on('conversation_read', (payload: unknown) => this.anomalies.push(protocol1('conversation_read', payload)));
  }

  /** A message pushed, or the sender's own from its send's ack. */
  hold(message: ConversationMessage): void {
    if ('conversation_id' in message) this.inbox.add(message);
    else this.anomalies.push(protocol1('message', message));
  }

  private holdChange(change: ConversationChange): void {
    if ('conversation_id' in change) this.inbox.addChange(change);
    else this.anomalies.push(protocol1('change', change));
  }

  /**
   * The change a `react`, `edit` or `unsend` was acknowledged with: the copy every member is
   * pushed, this socket included, so holding both is one more check that they are the same. (A
   * `hide`'s ack is the account's item; nobody here hides.)
   */
  holdAck(change: ConversationChange | AccountItem): void {
    if ('actor_id' in change) this.holdChange(change);
    else this.inbox.addItem(change);
  }

  /** `read`'s payload for the conversation a held message is in, all of it. */
  readPayload(message: ConversationMessage): { conversation_id: number } {
    return { conversation_id: message.conversation_id };
  }

  /** A gap that only a whole catch-up fills: one in the account's items (a conversation's own read fills its gap). */
  get gapNeedsFull(): boolean {
    return this.inbox.hasItemGap;
  }

  /** A (re)connect's catch-up: everything after what is held; false when the connection ended first. */
  async full(ask: Ask): Promise<boolean> {
    if (this.cursor === null) {
      this.stats.accountRequests++;
      const first = await ask('sync_account', {});
      if (!first) return false;
      if (first.items.length + first.conversations.length + first.removed.length > 0 || first.has_more) {
        this.anomalies.push(`sync_account without a cursor answered more than a cursor: ${JSON.stringify(first)}`);
      }
      this.cursor = first.cursor;
      return this.fillGaps(ask);
    }
    const moved = new Map<number, number>();
    let cursor = this.cursor;
    for (;;) {
      this.stats.accountRequests++;
      const page = await ask('sync_account', { cursor, limit: PAGE });
      if (!page) return false;
      for (const item of page.items) this.inbox.addItem(item);
      for (const row of page.conversations) moved.set(row.conversation_id, Math.max(row.last_seq, moved.get(row.conversation_id) ?? 0));
      // Nobody here blocks anyone or leaves: every conversation stays in the list.
      if (page.removed.length > 0) this.anomalies.push(`sync_account after ${cursor} removed conversations ${page.removed.join(', ')}`);
      if (page.has_more && page.cursor === cursor) {
        // Read what was named, and keep the cursor: the next catch-up asks again from it.
        this.anomalies.push(`sync_account after ${cursor}: has_more without moving on`);
        cursor = this.cursor;
        break;
      }
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    for (const [conversationId, lastSeq] of moved) if (!(await this.drain(ask, conversationId, lastSeq))) return false;
    if (!(await this.fillGaps(ask))) return false;
    this.cursor = cursor;
    return true;
  }

  /** Reads each conversation with a seq missing below one held; false when the connection ended. */
  async fillGaps(ask: Ask): Promise<boolean> {
    for (const conversationId of this.inbox.gaps()) if (!(await this.drain(ask, conversationId, 0))) return false;
    return true;
  }

  /**
   * Pages of `sync_conversation` from the highest seq held contiguously until the server says there
   * is no more, when the conversation is behind `lastSeq` (what `sync_account` said it reached) or
   * has a gap. False when the connection ended.
   */
  private async drain(ask: Ask, conversationId: number, lastSeq: number): Promise<boolean> {
    let after = this.inbox.contiguousOf(conversationId);
    if (after >= lastSeq && !this.inbox.gaps().includes(conversationId)) return true;
    for (;;) {
      this.stats.conversationRequests++;
      const page = await ask('sync_conversation', { conversation_id: conversationId, after, limit: PAGE });
      if (!page) return false;
      if (page.conversation_id !== conversationId) this.anomalies.push(`sync_conversation ${conversationId} answered for conversation ${page.conversation_id}`);
      for (const message of page.messages) this.inbox.add(message, 'sync');
      for (const change of page.changes) this.inbox.addChange(change);
      // The receipts as they stand, as the app applies them from its catch-up.
      for (const seen of page.seen) this.inbox.addSeen({ conversation_id: conversationId, ...seen });
      this.inbox.accountThrough(conversationId, page.through);
      if (page.has_more) {
        if (page.through <= after) {
          this.anomalies.push(`sync_conversation ${conversationId} after ${after}: has_more without moving on (through ${page.through})`);
          return true;
        }
        after = page.through;
        continue;
      }
      // last_seq is promised to be a safe place to resume from: nothing at or below it is missing.
      const held = this.inbox.contiguousOf(conversationId);
      if (held < page.last_seq) {
        this.anomalies.push(`sync_conversation ${conversationId} after ${after} answered last_seq ${page.last_seq} but seq ${held + 1} is missing`);
      }
      // Nobody here leaves a conversation, so its end never goes back.
      if (page.last_seq < lastSeq) {
        this.anomalies.push(`sync_account named conversation ${conversationId} at last_seq ${lastSeq}, sync_conversation then answered ${page.last_seq}`);
      }
      return true;
    }
  }

  /**
   * The receipts of the conversations where one of the user's messages shows none yet, from each
   * thread's newest page (GET /api/c/:id/messages, `seen`), as opening the thread would: a `seen`
   * lost with a connection reaches a catch-up only if the conversation moved since (a receipt is
   * member state, not stream, so it does not move the head).
   */
  async readReceipts(url: string, token: string): Promise<void> {
    for (const conversationId of this.inbox.unseenConversations()) {
      for (let tries = 1; ; tries++) {
        this.stats.receiptReads++;
        const response = await fetch(`${url}/api/c/${conversationId}/messages?limit=1`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null);
        if (response?.ok) {
          const page = (await response.json()) as ConversationThreadPage;
          for (const seen of page.seen) this.inbox.addSeen({ conversation_id: conversationId, ...seen });
          break;
        }
        if (tries === RECEIPT_TRIES) {
          this.anomalies.push(`GET /api/c/${conversationId}/messages answered ${response?.status ?? 'nothing'} ${RECEIPT_TRIES} times`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, RECEIPT_RETRY_MS * tries));
      }
    }
  }
}
