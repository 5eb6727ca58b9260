// The socket service module with a FakeSocket underneath, for tests of code that imports the
// module's functions (stores, wiring). Use it as the module's mock:
//
//   vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
//     (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()));
//
// then `resetFakeSocketService()` in beforeEach and `connectFakeSocket()` to get a live socket.
// Sessions started meanwhile keep their subscriptions on the old service: stop them first.
import type * as SocketServiceModule from '../socket-service';
import type { SocketService } from '../socket-service';
import { FakeSocket } from './fake-socket';

type ServiceModule = typeof SocketServiceModule;

interface FakeServiceState {
  create: ServiceModule['createSocketService'];
  service: SocketService;
  sockets: FakeSocket[];
}

let state: FakeServiceState | null = null;

function current(): FakeServiceState {
  if (!state) throw new Error('mock @/lib/socket/socket-service with fakeSocketServiceModule first');
  return state;
}

function freshService(create: ServiceModule['createSocketService']): FakeServiceState {
  const sockets: FakeSocket[] = [];
  const service = create((url, options) => {
    const socket = new FakeSocket(url, options);
    sockets.push(socket);
    return socket.asClientSocket();
  });
  return { create, service, sockets };
}

/** The module's exports, its `socketService` forwarding to the current fake service. */
export function fakeSocketServiceModule(actual: ServiceModule): ServiceModule {
  state = freshService(actual.createSocketService);
  const forward = {} as Record<keyof SocketService, unknown>;
  for (const name of Object.keys(state.service) as (keyof SocketService)[]) {
    forward[name] = (...args: unknown[]) => (current().service[name] as (...a: unknown[]) => unknown)(...args);
  }
  return { ...actual, socketService: forward as SocketService };
}

/** A new service and socket, so no listener or sent event leaks from one test into the next. */
export function resetFakeSocketService(): void {
  state = freshService(current().create);
}

/** Initialises the service as `userId` and lets the server accept: the socket is live. */
export function connectFakeSocket(userId = 7): FakeSocket {
  current().service.initSocket(userId);
  const socket = fakeSocket();
  if (!socket.connected) socket.serverAcceptsConnection();
  return socket;
}

export function fakeSocket(): FakeSocket {
  const socket = current().sockets.at(-1);
  if (!socket) throw new Error('no socket yet: call connectFakeSocket()');
  return socket;
}
