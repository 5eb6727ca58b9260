import type { Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type ServerOptions } from 'socket.io';
import { createMessageWriter, type MessageWriter } from '../db/message-writer';
import type { Db } from '../db/open-database';
import type { SocketDisconnector } from '../http/accounts-routes';
import { originAllowRequest } from '../security/origin';
import { MAX_SOCKET_PAYLOAD_BYTES } from '../security/payload-limits';
import { createRateLimiters, type RateLimits } from '../security/rate-limit';
import { rateLimitEvents } from '../security/socket-rate-limit';
import { registerAccountHandlers } from './account-handlers';
import { registerFollowHandlers } from './follow-handlers';
import { handshakeAuth } from './handshake';
import { registerMessageHandlers } from './message-handlers';
import type { PushNotifier } from '../push/push-notifier';
import type { VisibilityTracker } from '../push/visibility';
import { registerVisibilityHandler } from './visibility-handler';
import { rooms, type RealtimeServer } from './types';

export interface Realtime extends SocketDisconnector {
  io: RealtimeServer;
  /** Stops taking sends, commits (and acks) those already taken, then closes Socket.IO. */
  close(): Promise<void>;
}

export interface RealtimeDeps {
  db: Db;
  log: FastifyBaseLogger;
  rateLimits: RateLimits;
  /** Browser origins allowed to connect; null: the request's own (Host) only. */
  allowedOrigins: readonly string[] | null;
  /** Several nodes: the Redis adapter (redis-adapter.ts); unset: Socket.IO's in-process one. */
  adapter?: ServerOptions['adapter'];
  /** The group commit for `send` (message-writer.ts), closed by close(); unset: one over db with its defaults. */
  messageWriter?: MessageWriter;
  /** Which users have a tab in view (`visibility`); closed by close(). */
  visibility: VisibilityTracker;
  /** Web Push for stored messages; unset: none (no VAPID keys). Closed by close(). */
  push?: PushNotifier;
}

export function createRealtime(
  httpServer: HttpServer,
  { db, log, rateLimits, allowedOrigins, adapter, messageWriter, visibility, push }: RealtimeDeps,
): Realtime {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    // No connectionStateRecovery: the client's catch-up already restores what a reconnect missed,
    // and recovery would skip the handshake's session check (docs/DEPLOY.md, "Redis").
    ...(adapter ? { adapter } : {}),
    // Other upgrade requests (Next's dev HMR websocket) belong to the next listener, not to us.
    destroyUpgrade: false,
    serveClient: false,
    // A foreign page must not open a socket to us (cross-site WebSocket hijacking): checked on
    // every handshake, polling or WebSocket, before any session exists.
    allowRequest: originAllowRequest(allowedOrigins, log),
    // Split deployment: the pages' origin may read long-polling answers (WebSocket needs no CORS).
    ...(allowedOrigins ? { cors: { origin: [...allowedOrigins] } } : {}),
    // A larger WebSocket frame or polling body closes that connection (the client reconnects).
    maxHttpBufferSize: MAX_SOCKET_PAYLOAD_BYTES,
  });
  const limiters = createRateLimiters(rateLimits);
  const eventLimiters = { send: limiters.send, follow: limiters.follow };
  const writer = messageWriter ?? createMessageWriter(db);

  io.use(handshakeAuth(db, log));
  io.on('connection', (socket) => {
    // Every line about this socket says which socket and whose it is.
    const socketLog = log.child({ socketId: socket.id, userId: socket.data.userId });
    socketLog.info({ transport: socket.conn.transport.name }, 'socket connected');
    socket.once('disconnect', (reason) => socketLog.info({ reason }, 'socket disconnected'));
    void socket.join([rooms.account(socket.data.userId), rooms.session(socket.data.sessionId)]);
    socket.use(rateLimitEvents(socket, eventLimiters, socketLog));
    registerAccountHandlers(socket, db, socketLog);
    registerMessageHandlers(socket, db, writer, socketLog, push);
    registerVisibilityHandler(socket, visibility, socketLog);
    registerFollowHandlers(socket, db, socketLog);
  });

  return {
    io,
    disconnectUser: (userId) => io.in(rooms.account(userId)).disconnectSockets(true),
    disconnectSession: (sessionId) => io.in(rooms.session(sessionId)).disconnectSockets(true),
    close: async () => {
      await writer.close();
      await io.close();
      // After the sockets: pushes for the messages just committed still go out.
      await push?.close();
      await visibility.close();
    },
  };
}
