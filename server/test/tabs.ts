import type { Ack, InitPayload, ServerToClientEvents } from '../../lib/contract';
import type { SignedInUser, TestServer } from './helpers';
import { connectSocket, emitWithAck, type ClientSocket } from './socket-client';

/** Browser tabs for socket tests: connected (and by default initialised) sockets, closed together. */
export function socketTabs(getServer: () => TestServer) {
  const open: ClientSocket[] = [];
  return {
    async open(user: SignedInUser, { init = true } = {}): Promise<ClientSocket> {
      const socket = await connectSocket(getServer().url, user.bearer);
      open.push(socket);
      if (init) {
        const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', { id: user.user.id });
        if (!('data' in ack)) throw new Error(`init failed: ${JSON.stringify(ack)}`);
      }
      return socket;
    },
    closeAll(): void {
      for (const socket of open.splice(0)) socket.close();
    },
  };
}

/** Every payload of `event` the socket receives from now on, in order. */
export function record<E extends keyof ServerToClientEvents>(
  socket: ClientSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[0][] {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}
