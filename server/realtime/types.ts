import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../lib/contract';

interface SocketData {
  userId: number;
  sessionId: number;
  /** Its init succeeded: it counts as one of the user's tabs for presence until it disconnects. */
  present?: boolean;
}

// One node for now: no events between servers.
type InterServerEvents = Record<string, never>;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Rooms. `user:` is the messaging room, joined only after a successful init. `account:` and
 * `session:` are joined at connection, so deactivation and logout reach sockets that never sent init.
 * `presence:` rooms carry someone's presence changes to those who may see them; `profile:` rooms
 * changes to what may be done with someone (deleted, who may message them) to every socket
 * following them, whether or not it may see their presence.
 */
export const rooms = {
  user: (userId: number) => `user:${userId}`,
  account: (userId: number) => `account:${userId}`,
  session: (sessionId: number) => `session:${sessionId}`,
  /** Sockets allowed to see this user's presence, joined through presence_subscribe. */
  presence: (userId: number) => `presence:${userId}`,
  /** Sockets following this user (presence_subscribe), allowed to see their presence or not. */
  profile: (userId: number) => `profile:${userId}`,
};
