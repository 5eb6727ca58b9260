// A socket service over fake sockets: the setup every socket-service test needs.
import { createSocketService, type SocketService } from '../socket-service';
import { FakeSocket } from './fake-socket';

export interface ServiceHarness {
  service: SocketService;
  /** Every socket the service created, oldest first. */
  sockets: FakeSocket[];
  lastSocket(): FakeSocket;
  /** init(id) and let the server accept the connection. */
  connectedService(id?: number): FakeSocket;
}

export function createServiceHarness(): ServiceHarness {
  localStorage.clear();
  const sockets: FakeSocket[] = [];
  const service = createSocketService((url, options) => {
    const socket = new FakeSocket(url, options);
    sockets.push(socket);
    return socket.asClientSocket();
  });
  const lastSocket = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket was created');
    return socket;
  };
  return {
    service,
    sockets,
    lastSocket,
    connectedService(id = 7) {
      service.initSocket(id);
      const socket = lastSocket();
      socket.serverAcceptsConnection();
      return socket;
    },
  };
}
