// Live signals beside the delivery load (`--typing`): a share of the connected users behave as
// people typing do. Each subscribes to the presence of a conversation list's worth of others when
// it starts (what a client does on connecting), then types to one person after another: `typing:
// true` at once and every TYPING_REFRESH_MS while typing, `false` when a burst of typing ends
// (as at a send), then on to someone else. The phase's send→receive figures are then compared
// with the same load without it (BENCHMARKS.md, "Live signals").
import { CONVERSATION_PAGE_SIZE, TYPING_REFRESH_MS } from '../lib/contract';
import type { TypingPayload } from '../lib/contract/schemas';
import type { ConnectedClient } from './clients';

export interface LiveTrafficOptions {
  /** Share of the users typing (0.1: every tenth). */
  share: number;
  /** Refreshes in one burst of typing before it stops (a message written in about 3 × 3 s). */
  refreshesPerBurst?: number;
}

export interface LiveTrafficFigures {
  typers: number;
  typingSent: number;
  typingAcked: number;
  typingErrors: number;
  /**
   * `typing` events the recipients' sockets received: protocol 2 places a signal in the two's
   * conversation, so one to someone the typer has no conversation with yet reaches no tab.
   */
  typingReceived: number;
  presenceSubscriptions: number;
  presenceErrors: number;
}

export interface LiveTraffic {
  stop(): LiveTrafficFigures;
}

const ACK_TIMEOUT_MS = 10_000;

export function startLiveTraffic(clients: ConnectedClient[], { share, refreshesPerBurst = 3 }: LiveTrafficOptions): LiveTraffic {
  const every = Math.max(1, Math.round(1 / share));
  const typers = clients.filter((_, index) => index % every === 0);
  const figures: LiveTrafficFigures = {
    typers: typers.length,
    typingSent: 0,
    typingAcked: 0,
    typingErrors: 0,
    typingReceived: 0,
    presenceSubscriptions: 0,
    presenceErrors: 0,
  };
  const onTyping = () => void figures.typingReceived++;
  for (const client of clients) client.socket.on('typing', onTyping);
  const randomPeer = (self: ConnectedClient) => {
    let peer = self;
    while (peer === self) peer = clients[Math.floor(Math.random() * clients.length)]!;
    return peer;
  };
  const request = (client: ConnectedClient, event: string, payload: unknown, onAck: (ok: boolean) => void) =>
    client.socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, (error: unknown, ack: { data?: unknown } | undefined) => onAck(!error && ack !== undefined && 'data' in ack));

  const timers: NodeJS.Timeout[] = [];
  for (const typer of typers) {
    const list = Array.from({ length: Math.min(CONVERSATION_PAGE_SIZE, clients.length - 1) }, () => randomPeer(typer).user.id);
    figures.presenceSubscriptions++;
    request(typer, 'presence_subscribe', { user_ids: [...new Set(list)] }, (ok) => {
      if (!ok) figures.presenceErrors++;
    });
    let peer = randomPeer(typer);
    let refreshes = 0;
    const signal = (typing: boolean) => {
      figures.typingSent++;
      // By the person, as the app's typing sender names them.
      request(typer, 'typing', { user_id: peer.user.id, typing } satisfies TypingPayload, (ok) => void (ok ? figures.typingAcked++ : figures.typingErrors++));
    };
    const tick = () => {
      if (refreshes === refreshesPerBurst) {
        signal(false);
        peer = randomPeer(typer);
        refreshes = 0;
        return;
      }
      signal(true);
      refreshes++;
    };
    // Spread over one interval, so the typers do not all signal in the same millisecond.
    timers.push(
      setTimeout(() => {
        tick();
        timers.push(setInterval(tick, TYPING_REFRESH_MS));
      }, Math.random() * TYPING_REFRESH_MS),
    );
  }

  return {
    stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const client of clients) client.socket.off('typing', onTyping);
      return { ...figures };
    },
  };
}
