import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_PROTOCOL, type Ack, type ClientToServerEvents, type ConversationMessage, type SendPayload, type ServerToClientEvents } from '../../lib/contract';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const WAIT_MS = 5_000;

/**
 * A socket.io-client with the app's handshake (its protocol, unless `auth` says otherwise: `{}`
 * names none); resolves once connected, rejects with connect_error.
 */
export function connectSocket(base: string, token?: string, auth: Record<string, unknown> = { protocol: SOCKET_PROTOCOL }): Promise<ClientSocket> {
  const socket: ClientSocket = connect(base, {
    auth: token === undefined ? auth : { token, ...auth },
    reconnection: false,
    forceNew: true,
    timeout: WAIT_MS,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Resolves with the event's first argument, or rejects after a timeout. */
export function nextEvent<T>(socket: ClientSocket, event: string, ms = WAIT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    (socket as unknown as Socket).once(event, (value: T) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Emits and waits for the ack, with a timeout so a missing ack fails the test instead of hanging it. */
export function emitWithAck<T>(socket: ClientSocket, event: string, ...args: unknown[]): Promise<T> {
  return (socket as unknown as Socket).timeout(WAIT_MS).emitWithAck(event, ...args) as Promise<T>;
}

/** Whom a test sends to: a signed-in user (helpers.ts), a seeded one (testing/seed.ts) or an id. */
type Recipient = { user: { id: number } } | { id: number } | number;

/** Sends a message to a person with a fresh client_id; resolves with the ack: the stored message or the refusal. */
export function send(socket: ClientSocket, to: Recipient, text = 'hello', extra: Partial<SendPayload> = {}): Promise<Ack<ConversationMessage>> {
  const recipientId = typeof to === 'number' ? to : 'user' in to ? to.user.id : to.id;
  return emitWithAck<Ack<ConversationMessage>>(socket, 'send', { client_id: randomUUID(), recipient_id: recipientId, text, ...extra });
}

/** `send` for a test that needs the message stored: resolves with it, throws with the refusal. */
export async function sendAccepted(...args: Parameters<typeof send>): Promise<ConversationMessage> {
  const ack = await send(...args);
  if (!('data' in ack)) throw new Error(`send refused: ${JSON.stringify(ack)}`);
  return ack.data;
}
