import { afterAll, afterEach, beforeAll } from 'vitest';
import { SOCKET_PROTOCOL, type Ack, type InitPayload, type ServerToClientEvents } from '../../lib/contract';
import type { SignedInUser, TestServer } from './helpers';
import { connectSocket, emitWithAck, type ClientSocket } from './socket-client';

/**
 * Browser tabs for socket tests: connected (and by default initialised) sockets, closed together.
 * They speak the app's protocol (SOCKET_PROTOCOL) unless told otherwise: `protocol` for all of
 * them, or for one tab (a test of what a tab of another release is told).
 */
export function socketTabs(getServer: () => TestServer, { protocol: tabsProtocol = SOCKET_PROTOCOL }: { protocol?: number } = {}) {
  const open: ClientSocket[] = [];
  return {
    /** `protocol`: the one the handshake asks for (absent: the tabs'; null: none named, as a tab from before protocols were numbered). */
    async open(user: SignedInUser, { init = true, protocol = tabsProtocol }: { init?: boolean; protocol?: number | null } = {}): Promise<ClientSocket> {
      const socket = await connectSocket(getServer().url, user.bearer, protocol === null ? {} : { protocol });
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
export function serverWithTabs<S extends TestServer>(start: () => Promise<S>, options: { protocol?: number } = {}): { t: S; tabs: SocketTabs } {
  const t = {} as S;
  const tabs = socketTabs(() => t, options);
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
