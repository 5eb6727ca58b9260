import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../lib/contract';

export interface SocketData {
  userId: number;
  sessionId: number;
}

// One node for now: no events between servers.
type InterServerEvents = Record<string, never>;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Rooms. `user:` is the messaging room, joined only after a successful init. `account:` and
 * `session:` are joined at connection, so deactivation and logout reach sockets that never sent init.
 */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  account: (userId: number) => `account:${userId}`,
  session: (sessionId: number) => `session:${sessionId}`,
};
