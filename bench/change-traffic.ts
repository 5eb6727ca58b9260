// Changes to messages beside the delivery load (`--changes`): a share of the connected users
// react to, and read, the messages they receive, as people do while talking. Each change takes a
// seq of both people's streams and locks both accounts like a message batch (docs/DELIVERY.md,
// "Changes to messages"), so this is what could slow the send path down. The phase's
// send→receive and ack figures are compared with the same load without it (BENCHMARKS.md).
import { QUICK_REACTIONS, type ConversationMessage } from '../lib/contract';
import type { ReactPayload, ReadPayload } from '../lib/contract/schemas';
import type { ConnectedClient } from './clients';

export interface ChangeTrafficOptions {
  /** Share of the users making changes (0.1: every tenth). */
  share: number;
  /** Mean time between one user's changes. */
  everyMs?: number;
}

export interface ChangeTrafficFigures {
  changers: number;
  changesSent: number;
  changesAcked: number;
  changesErrors: number;
  /**
   * What the changes pushed, as the sockets received it: a reaction's `message_change` (both
   * people's tabs), a read's `account_item` (the reader's) and `seen` (the other person's).
   */
  changesReceived: number;
}

export interface ChangeTraffic {
  stop(): ChangeTrafficFigures;
}

const ACK_TIMEOUT_MS = 10_000;

export function startChangeTraffic(clients: ConnectedClient[], { share, everyMs = 2_000 }: ChangeTrafficOptions): ChangeTraffic {
  const every = Math.max(1, Math.round(1 / share));
  const changers = clients.filter((_, index) => index % every === 0);
  const figures: ChangeTrafficFigures = { changers: changers.length, changesSent: 0, changesAcked: 0, changesErrors: 0, changesReceived: 0 };
  const onChange = () => void figures.changesReceived++;
  const pushes = ['message_change', 'account_item', 'seen'];
  for (const client of clients) for (const event of pushes) client.socket.on(event, onChange);
  // The latest message each changer received: what it reacts to, and the conversation it reads.
  const latest = new Map<ConnectedClient, ConversationMessage>();
  const listeners = changers.map((client) => {
    const listener = (message: ConversationMessage) => void latest.set(client, message);
    client.socket.on('message', listener);
    return () => client.socket.off('message', listener);
  });
  const request = (client: ConnectedClient, event: string, payload: unknown) => {
    figures.changesSent++;
    client.socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, (error: unknown, ack: { data?: unknown } | undefined) => {
      if (!error && ack !== undefined && 'data' in ack) figures.changesAcked++;
      else figures.changesErrors++;
    });
  };

  const timers: NodeJS.Timeout[] = [];
  for (const changer of changers) {
    let added = false;
    const tick = () => {
      const message = latest.get(changer);
      if (!message) return;
      // Alternately a reaction toggled on the latest message received and a read of its conversation.
      if (Math.random() < 0.5) {
        added = !added;
        request(changer, 'react', { message_id: message.id, emoji: QUICK_REACTIONS[0], add: added } satisfies ReactPayload);
      } else {
        request(changer, 'read', { conversation_id: message.conversation_id } satisfies ReadPayload);
      }
    };
    // Spread over one interval, so the changers do not all act in the same millisecond.
    timers.push(
      setTimeout(() => {
        tick();
        timers.push(setInterval(tick, everyMs));
      }, Math.random() * everyMs),
    );
  }

  return {
    stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const stop of listeners) stop();
      for (const client of clients) for (const event of pushes) client.socket.off(event, onChange);
      return { ...figures };
    },
  };
}
