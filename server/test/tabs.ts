import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Ack, InitPayload, ServerToClientEvents } from '../../lib/contract';
import type { SignedInUser, TestServer } from './helpers';
import { connectSocket, emitWithAck, type ClientSocket } from './socket-client';

/**
 * Browser tabs for socket tests: connected (and by default initialised) sockets speaking the
 * app's protocol, closed together. (A test of what a tab of another protocol is told connects
 * its own socket: handshake.test.ts.)
 */
export function socketTabs(getServer: () => TestServer) {
  const open: ClientSocket[] = [];
  return {
    async open(user: SignedInUser, { init = true }: { init?: boolean } = {}): Promise<ClientSocket> {
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

type SocketTabs = ReturnType<typeof socketTabs>;

/**
 * A socket test file's server and tabs (or a describe block's): `start()` runs before the tests
 * and its server closes after them; tabs close after each test. `t` is filled in once the server
 * has started, so helpers written beside the tests can use it as they would the server itself.
 */
export function serverWithTabs<S extends TestServer>(start: () => Promise<S>): { t: S; tabs: SocketTabs } {
  const t = {} as S;
  const tabs = socketTabs(() => t);
  let started: S | undefined;
  beforeAll(async () => {
    started = await start();
    Object.assign(t, started);
  });
  afterEach(() => tabs.closeAll());
  // Unset when start() failed: its error is then the one the run reports.
  afterAll(() => started?.close());
  return { t, tabs };
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
