import type { Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import type { Db } from '../db/open-database';
import type { SocketDisconnector } from '../http/accounts-routes';
import { registerAccountHandlers } from './account-handlers';
import { registerFollowHandlers } from './follow-handlers';
import { handshakeAuth } from './handshake';
import { registerMessageHandlers } from './message-handlers';
import { rooms, type RealtimeServer } from './types';

export interface Realtime extends SocketDisconnector {
  io: RealtimeServer;
  close(): Promise<void>;
}

export function createRealtime(httpServer: HttpServer, { db, log }: { db: Db; log: FastifyBaseLogger }): Realtime {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    // Other upgrade requests (Next's dev HMR websocket) belong to the next listener, not to us.
    destroyUpgrade: false,
    serveClient: false,
  });

  io.use(handshakeAuth(db, log));
  io.on('connection', (socket) => {
    void socket.join([rooms.account(socket.data.userId), rooms.session(socket.data.sessionId)]);
    registerAccountHandlers(socket, db, log);
    registerMessageHandlers(socket, db, log);
    registerFollowHandlers(socket, db, log);
  });

  return {
    io,
    disconnectUser: (userId) => io.in(rooms.account(userId)).disconnectSockets(true),
    disconnectSession: (sessionId) => io.in(rooms.session(sessionId)).disconnectSockets(true),
    close: () => io.close(),
  };
}
