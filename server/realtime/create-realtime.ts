import type { Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type ServerOptions } from 'socket.io';
import { createMessageWriter, type MessageWriter } from '../db/delivery/message-writer';
import type { Db } from '../db/engine/open-database';
import type { SocketDisconnector } from './socket-reach';
import type { SocketNotifier } from './socket-reach';
import type { SessionAuth } from '../auth/session-auth';
import { originAllowRequest } from '../security/origin';
import { MAX_SOCKET_PAYLOAD_BYTES } from '../security/payload-limits';
import type { RateLimiters } from '../security/rate-limit';
import type { SocketCap } from '../security/socket-cap';
import { limitEvents } from './socket-rate-limit';
import { createChangeWriter } from '../db/delivery/change-batch';
import { type MessageWindows } from '../db/delivery/changes/plan';
import type { FileStorage } from '../storage/file-storage';
import type { RefusalLog } from '../logging/refusal-log';
import { registerAccountHandlers } from './account-handlers';
import { countRefusalsOf } from './refusals';
import { registerChangeHandlers } from './change-handlers';
import { registerFollowHandlers } from './follow-handlers';
import { handshakeAuth } from './handshake';
import { registerMessageHandlers } from './message-handlers';
import { createSessionCheck } from './session-check';
import { registerPresenceHandlers } from './presence-handlers';
import { createPresence, type Presence } from './presence/presence';
import { createMemoryRegistry, type PresenceRegistry } from './presence/registry';
import { registerTypingHandlers } from './typing-handlers';
import { createSignalCheck } from './can-signal';
import { createKeyedLanes, createLane } from '../db/engine/lane';
import { actingFor } from '../db/engine/account-turns';
import type { PushNotifier } from '../push/push-notifier';
import type { VisibilityTracker } from '../push/visibility';
import { registerVisibilityHandler } from './visibility-handler';
import { rooms, type RealtimeServer } from './types';

/** Whose turn a handshake's queries take before its account is known. */
const HANDSHAKES = 'handshakes';

export interface Realtime extends SocketDisconnector, SocketNotifier {
  io: RealtimeServer;
  presence: Presence;
  /** Stops taking sends, commits (and acks) those already taken, then closes Socket.IO. */
  close(): Promise<void>;
}

export interface RealtimeDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** Where refused handshakes and events are counted (logging/refusal-log.ts). */
  refusals: RefusalLog;
  /** Per-user budgets: every event takes from its own or the default one (security/socket-rate-limit.ts). */
  limiters: RateLimiters;
  /** True while the node sheds load: events are answered busy. */
  overloaded: () => boolean;
  /** Sockets per user; past the cap the oldest are disconnected. Closed by close(). */
  socketCap: SocketCap;
  /** Browser origins allowed to connect; null: the request's own (Host) only. */
  allowedOrigins: readonly string[] | null;
  /** Several nodes: the Redis adapter (redis-adapter.ts); unset: Socket.IO's in-process one. */
  adapter?: ServerOptions['adapter'];
  /** The group commit for `send` (message-writer.ts), closed by close(); unset: one over db with its defaults. */
  messageWriter?: MessageWriter;
  /** Session lifetimes and the Firebase account check, at the handshake and again while open. */
  sessionAuth: SessionAuth;
  /** Who is online: Redis with several nodes (presence/redis-registry.ts); unset: this process's memory. */
  presenceRegistry?: PresenceRegistry;
  /** How long after a user's last tab closes they still count as online (presence/presence.ts). */
  offlineGraceMs?: number;
  /** Which users have a tab in view (`visibility`); closed by close(). */
  visibility: VisibilityTracker;
  /** Web Push for stored messages; unset: none (no VAPID keys). Closed by close(). */
  push?: PushNotifier;
  /** How long after sending a message its sender may edit and unsend it. */
  windows: MessageWindows;
  /** Where uploads live: an unsent message's file is removed from it. */
  storage: FileStorage;
  /** The socket protocols served (handshake.ts); unset: this release's, SERVED_PROTOCOLS. */
  protocols?: readonly number[];
}

export function createRealtime(
  httpServer: HttpServer,
  { db, log, refusals, limiters, overloaded, socketCap, allowedOrigins, adapter, messageWriter, sessionAuth, presenceRegistry, offlineGraceMs, visibility, push, windows, storage, protocols }: RealtimeDeps,
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
    allowRequest: originAllowRequest(allowedOrigins, refusals),
    // Split deployment: the pages' origin may read long-polling answers (WebSocket needs no CORS).
    ...(allowedOrigins ? { cors: { origin: [...allowedOrigins] } } : {}),
    // A larger WebSocket frame or polling body closes that connection (the client reconnects).
    maxHttpBufferSize: MAX_SOCKET_PAYLOAD_BYTES,
  });
  countRefusalsOf(io, refusals);
  const writer = messageWriter ?? createMessageWriter(db);
  const changes = createChangeWriter(db);
  // Presence subscriptions and typing checks: one query at a time, so a burst of them never
  // queues ahead of the writer's batches (db/lane.ts).
  const liveSignals = createLane();
  // Each account's sync pages, one at a time across its sockets (message-handlers.ts).
  const syncs = createKeyedLanes();
  const presence = createPresence({
    io,
    db,
    lane: liveSignals,
    log,
    registry: presenceRegistry ?? createMemoryRegistry(),
    offlineGraceMs,
    recordAllOnClose: !presenceRegistry,
  });

  const sessionCheck = createSessionCheck(io, db, sessionAuth);
  const signalCheck = createSignalCheck(db, { lane: liveSignals });

  // A handshake's account is known only once its session is read: until then its queries take
  // one turn for all handshakes, so a reconnect storm waits behind itself (db/account-turns.ts).
  const handshake = handshakeAuth(db, log, sessionAuth, limiters.connect, protocols);
  io.use((socket, next) => actingFor(HANDSHAKES, () => handshake(socket, next)));
  io.on('connection', (socket) => {
    // Every line about this socket says which socket and whose it is.
    const socketLog = log.child({ socketId: socket.id, userId: socket.data.userId });
    socketLog.info({ transport: socket.conn.transport.name }, 'socket connected');
    const { userId } = socket.data;
    socket.once('disconnect', (reason) => {
      socketCap.release(userId, socket.id);
      socketLog.info({ reason }, 'socket disconnected');
      if (socket.data.present) presence.disconnected(userId);
    });
    void socket.join([rooms.account(userId), rooms.session(socket.data.sessionId)]);
    // Each socket is in a room of its own id, on whichever node holds it: this reaches it from any node.
    void socketCap.admit(userId, socket.id).then((evicted) => {
      if (evicted.length === 0) return;
      socketLog.info({ evicted: evicted.length }, 'oldest sockets of the user disconnected: too many at once');
      io.in(evicted).disconnectSockets(true);
    });
    // Everything an event leads to is this account's, its queries included (db/account-turns.ts).
    socket.use((_packet, next) => actingFor(userId, next));
    // Then: an ended session's events go no further, not even into the rate limits.
    socket.use(sessionCheck.watch(socket, socketLog));
    socket.use(limitEvents(socket, { limiters, overloaded, log: socketLog }));
    registerAccountHandlers(socket, db, presence, windows, socketLog);
    registerMessageHandlers(socket, db, writer, socketLog, syncs, push);
    registerVisibilityHandler(socket, visibility, socketLog);
    registerChangeHandlers(socket, { changes, windows, storage, log: socketLog });
    registerFollowHandlers(socket, db, presence, limiters, socketLog);
    registerTypingHandlers(socket, db, signalCheck, socketLog);
    registerPresenceHandlers(socket, presence, socketLog);
  });

  return {
    io,
    presence,
    disconnectUser: (userId) => io.in(rooms.account(userId)).disconnectSockets(true),
    disconnectSession: (sessionId) => io.in(rooms.session(sessionId)).disconnectSockets(true),
    // The messaging rooms: sockets that have sent init, as for every other event to a user.
    notify: (userIds, event, ...args) => io.to(rooms.inboxes(userIds)).emit(event, ...args),
    notifyWatchers: (subjectId, userIds, event, ...args) => io.to([rooms.profile(subjectId), ...rooms.inboxes(userIds)]).emit(event, ...args),
    close: async () => {
      sessionCheck.close();
      await Promise.all([writer.close(), changes.close()]);
      socketCap.close();
      await io.close();
      // After the sockets are gone: one node records its users as last seen now.
      await presence.close();
      // After the sockets: pushes for the messages just committed still go out.
      await push?.close();
      await visibility.close();
    },
  };
}
