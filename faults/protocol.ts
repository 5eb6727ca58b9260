// What differs between the two socket protocols for a simulated client (sim-client.ts): what it
// holds, which pushes it hears, how it catches up after a (re)connect or a gap. Protocol 1 numbers
// everything by the account's seq (account-protocol.ts); protocol 2 by each conversation's, beside
// the account's own items (conversation-protocol.ts; docs/API.md, "Protocol 2's pushes").
import type { Socket } from 'socket.io-client';
import type { AccountSyncResult, ConversationChange, ConversationSyncResult, MessageChange, SyncResult } from '../lib/contract';
import type { SyncAccountPayload, SyncConversationPayload, SyncPayload } from '../lib/contract/schemas';
import type { ConversationInbox } from './conversation-inbox';
import type { HeldMessage, Inbox } from './inbox';

/**
 * Asks on the current connection until answered: the answer, or null once the connection ended
 * (or the server refused the question, which the asker records as an anomaly).
 */
export interface Ask {
  (event: 'sync', payload: SyncPayload): Promise<SyncResult | null>;
  (event: 'sync_account', payload: SyncAccountPayload): Promise<AccountSyncResult | null>;
  (event: 'sync_conversation', payload: SyncConversationPayload): Promise<ConversationSyncResult | null>;
}

export interface Protocol {
  readonly inbox: Inbox | ConversationInbox;
  /** Listens to the protocol's pushes; `heard` runs after each (the client then looks for a gap). */
  listen(socket: Socket, heard: () => void): void;
  /** A message pushed, or the sender's own from its send's ack. */
  hold(message: HeldMessage): void;
  /** The change a `react`, `edit` or `unsend` was acknowledged with (protocol 1's shape in both protocols). */
  holdAck(change: MessageChange | ConversationChange): void;
  /** `read`'s payload for the conversation a held message is in, all of it. */
  readPayload(message: HeldMessage): Record<string, number>;
  /** A gap that only a whole catch-up fills (not a conversation's, which its own read fills). */
  readonly gapNeedsFull: boolean;
  /** A (re)connect's catch-up: everything after what is held; false when the connection ended first. */
  full(ask: Ask): Promise<boolean>;
  /** What the gaps lack; false when the connection ended first. */
  fillGaps(ask: Ask): Promise<boolean>;
}

/** A payload in the other protocol's shape, or an event only the other protocol has: the server gives each protocol's room its own. */
export const wrongShape = (protocol: 1 | 2, what: string, payload: unknown) =>
  `protocol ${protocol} socket got a ${what} of the other protocol: ${JSON.stringify(payload)}`;
