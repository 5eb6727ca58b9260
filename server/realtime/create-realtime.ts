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
import { registerPresenceHandlers } from './presence-handlers';
import { createPresence, type Presence } from './presence/presence';
import { createMemoryRegistry, type PresenceRegistry } from './presence/registry';
import { registerTypingHandlers } from './typing-handlers';
import { rooms, type RealtimeServer } from './types';

export interface Realtime extends SocketDisconnector {
  io: RealtimeServer;
  presence: Presence;
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
  /** Who is online: Redis with several nodes (presence/redis-registry.ts); unset: this process's memory. */
  presenceRegistry?: PresenceRegistry;
  /** How long after a user's last tab closes they still count as online (presence/presence.ts). */
  offlineGraceMs?: number;
}

export function createRealtime(
  httpServer: HttpServer,
  { db, log, rateLimits, allowedOrigins, adapter, messageWriter, presenceRegistry, offlineGraceMs }: RealtimeDeps,
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
  const eventLimiters = { send: limiters.send, follow: limiters.follow, typing: limiters.typing, presence_subscribe: limiters.presence };
  const writer = messageWriter ?? createMessageWriter(db);
  const presence = createPresence({
    io,
    db,
    log,
    registry: presenceRegistry ?? createMemoryRegistry(),
    offlineGraceMs,
    recordAllOnClose: !presenceRegistry,
  });

  io.use(handshakeAuth(db, log));
  io.on('connection', (socket) => {
    // Every line about this socket says which socket and whose it is.
    const socketLog = log.child({ socketId: socket.id, userId: socket.data.userId });
    socketLog.info({ transport: socket.conn.transport.name }, 'socket connected');
    socket.once('disconnect', (reason) => {
      socketLog.info({ reason }, 'socket disconnected');
      if (socket.data.present) presence.disconnected(socket.data.userId);
    });
    void socket.join([rooms.account(socket.data.userId), rooms.session(socket.data.sessionId)]);
    socket.use(rateLimitEvents(socket, eventLimiters, socketLog));
    registerAccountHandlers(socket, db, presence, socketLog);
    registerMessageHandlers(socket, db, writer, socketLog);
    registerFollowHandlers(socket, db, presence, socketLog);
    registerTypingHandlers(socket, db, socketLog);
    registerPresenceHandlers(socket, presence, socketLog);
  });

  return {
    io,
    presence,
    disconnectUser: (userId) => io.in(rooms.account(userId)).disconnectSockets(true),
    disconnectSession: (sessionId) => io.in(rooms.session(sessionId)).disconnectSockets(true),
    close: async () => {
      await writer.close();
      await io.close();
      // After the sockets are gone: one node records its users as last seen now.
      await presence.close();
    },
  };
}
