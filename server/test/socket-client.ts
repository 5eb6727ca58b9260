import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../lib/contract';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const WAIT_MS = 5_000;

/** A socket.io-client with the app's handshake; resolves once connected, rejects with connect_error. */
export function connectSocket(base: string, token?: string): Promise<ClientSocket> {
  const socket: ClientSocket = connect(base, {
    auth: token === undefined ? {} : { token },
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
