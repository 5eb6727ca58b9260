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
 * Rooms. `user2:` is an account's messaging room, joined by each of its sockets only after a
 * successful init. (The name is protocol 2's, whose sockets were the ones in it while protocol 1's
 * used `user:`; it stays, so that during a rolling deploy the nodes of the release that served
 * both still reach this release's sockets through the adapter, and the other way round.)
 * `account:` and `session:` are joined at connection, so deactivation and logout reach sockets
 * that never sent init. `presence:` rooms carry someone's presence changes to those who may see
 * them; `profile:` rooms changes to what may be done with someone (deleted, who may message them)
 * to every socket following them, whether or not it may see their presence.
 */
export const rooms = {
  /** An account's initialised sockets: its messaging pushes. */
  inbox: (userId: number) => `user2:${userId}`,
  /** The messaging rooms of each account. */
  inboxes: (userIds: number | readonly number[]) => (typeof userIds === 'number' ? [userIds] : userIds).map(rooms.inbox),
  account: (userId: number) => `account:${userId}`,
  session: (sessionId: number) => `session:${sessionId}`,
  /** Sockets allowed to see this user's presence, joined through presence_subscribe. */
  presence: (userId: number) => `presence:${userId}`,
  /** Sockets following this user (presence_subscribe), allowed to see their presence or not. */
  profile: (userId: number) => `profile:${userId}`,
};
