// The application's socket service loads socket.io-client when a socket is first wanted and the
// main area's first screen is painted, not with the page (socket-service.ts): the library here
// records when it is evaluated.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './testing/fake-socket';

const library = vi.hoisted(() => ({ evaluated: 0, sockets: [] as FakeSocket[] }));
vi.mock('socket.io-client', () => {
  library.evaluated += 1;
  return {
    io: (url: unknown, options?: unknown) => {
      // io(options) or io(url, options), as the service calls it.
      const socket = new FakeSocket(typeof url === 'string' ? url : undefined, (typeof url === 'string' ? options : url) as never);
      library.sockets.push(socket);
      return socket.asClientSocket();
    },
  };
});

afterEach(() => {
  library.evaluated = 0;
  library.sockets.length = 0;
});

describe('the application socket service', () => {
  it('does not evaluate socket.io-client as it is imported; after the first initSocket and the first screen, loads it and connects', async () => {
    const { socketService } = await import('./socket-service');
    const { firstScreenShown } = await import('@/lib/session/first-screen');
    expect(library.evaluated).toBe(0);
    socketService.initSocket(7);
    expect(socketService.status()).toBe('connecting');
    // The id is the socket's at once (docs/CLIENT-RULES.md); the connection waits for the screen.
    expect(socketService.userId()).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(library.evaluated).toBe(0);
    firstScreenShown();
    await vi.waitFor(() => expect(library.sockets).toHaveLength(1));
    expect(library.evaluated).toBe(1);
    await vi.waitFor(() => expect(library.sockets[0]!.connectCalls).toBe(1));
    library.sockets[0]!.serverAcceptsConnection();
    expect(library.sockets[0]!.sentEvents('init')).toEqual([['init', { id: 7 }]]);
    socketService.disconnectSocket();
  });
});
