// Socket refusals go into the server's one refusal count (logging/refusal-log.ts), found from the
// socket's server, so handlers need no extra argument to count theirs.
import { refusedCaller, type RefusalLog } from '../logging/refusal-log';
import type { RealtimeServer, RealtimeSocket } from './types';

const byServer = new WeakMap<object, RefusalLog>();

export function countRefusalsOf(io: RealtimeServer, refusals: RefusalLog): void {
  byServer.set(io, refusals);
}

/**
 * Counts one refusal of this socket's account (its address before the handshake has said whose it
 * is; `userId` when the handshake knows the account but refuses the socket).
 */
export function countSocketRefusal(socket: RealtimeSocket, reason: string, sample?: string, userId = socket.data.userId): void {
  byServer.get(socket.nsp.server)?.count(refusedCaller(userId, socket.handshake.address), reason, sample);
}
