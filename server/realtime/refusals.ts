// Socket refusals go into the server's one refusal count (logging/refusal-log.ts), found from the
// socket's server, so handlers need no extra argument to count theirs.
import { refusedCaller, type RefusalLog } from '../logging/refusal-log';
import type { RealtimeServer, RealtimeSocket } from './types';

const byServer = new WeakMap<object, RefusalLog>();

export function countRefusalsOf(io: RealtimeServer, refusals: RefusalLog): void {
  byServer.set(io, refusals);
}

/** Counts one refusal of this socket's account (its address before the handshake has said whose it is). */
export function countSocketRefusal(socket: RealtimeSocket, reason: string, sample?: string): void {
  byServer.get(socket.nsp.server)?.count(refusedCaller(socket.data.userId, socket.handshake.address), reason, sample);
}
