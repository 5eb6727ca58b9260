import type { BroadcastOperator, Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, ServerToClientEvents2 } from '../../lib/contract';

interface SocketData {
  userId: number;
  sessionId: number;
  /** The socket protocol its handshake asked for (realtime/handshake.ts): which room init joins, so which shape its pushes take. */
  protocol: number;
  /** Its init succeeded: it counts as one of the user's tabs for presence until it disconnects. */
  present?: boolean;
}

// One node for now: no events between servers.
type InterServerEvents = Record<string, never>;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const user = (userId: number) => `user:${userId}`;
const user2 = (userId: number) => `user2:${userId}`;

/**
 * Rooms. `user:` and `user2:` are the messaging rooms of protocol 1's and protocol 2's sockets
 * (docs/design/conversations.md 4.3), joined only after a successful init: each takes the pushes in
 * its protocol's shape, and the events both protocols share go to both. `account:` and `session:`
 * are joined at connection, so deactivation and logout reach sockets that never sent init.
 * `presence:` rooms carry someone's presence changes to those who may see them; `profile:` rooms
 * changes to what may be done with someone (deleted, who may message them) to every socket
 * following them, whether or not it may see their presence.
 */
export const rooms = {
  user,
  user2,
  /** The messaging room an initialised socket of this protocol is in. */
  inbox: (protocol: number, userId: number) => (protocol === 2 ? user2(userId) : user(userId)),
  /** Both messaging rooms of each account: every initialised socket, for the events both protocols share. */
  inboxes: (userIds: number | readonly number[]) => (typeof userIds === 'number' ? [userIds] : userIds).flatMap((id) => [user(id), user2(id)]),
  account: (userId: number) => `account:${userId}`,
  session: (sessionId: number) => `session:${sessionId}`,
  /** Sockets allowed to see this user's presence, joined through presence_subscribe. */
  presence: (userId: number) => `presence:${userId}`,
  /** Sockets following this user (presence_subscribe), allowed to see their presence or not. */
  profile: (userId: number) => `profile:${userId}`,
};

/**
 * A broadcast to protocol 2 rooms, typed by protocol 2's events (`rooms.user2` only: a protocol 1
 * socket must never be in what this emits to).
 */
export const protocol2 = (to: BroadcastOperator<ServerToClientEvents, SocketData>) => to as unknown as BroadcastOperator<ServerToClientEvents2, SocketData>;

