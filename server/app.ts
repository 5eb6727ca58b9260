import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createAccountCheck } from './auth/account-check';
import type { FirebaseTokenVerifier } from './auth/firebase-verifier';
import { DEFAULT_SESSION_RULES } from './db/session-rules';
import {
  DEFAULT_EDIT_WINDOW_MS,
  DEFAULT_MAX_SOCKETS_PER_USER,
  DEFAULT_REFUSAL_HOLD_MS,
  DEFAULT_SHED_EVENT_LOOP_DELAY_MS,
  DEFAULT_UNATTACHED_UPLOAD_TTL_MS,
  DEFAULT_UNSEND_WINDOW_MS,
  DEFAULT_UPLOAD_QUOTA_BYTES,
  type Config,
} from './config';
import { DEFAULT_RATE_LIMITS } from './security/rate-limit-defaults';
import type { Database } from './db/engine/open-database';
import { installSessionAuth } from './http/authenticate';
import { type SessionAuth } from './auth/session-auth';
import { buildHttpApp } from './http/build-http-app';
import { STATIC_PREFIX, type StaticAssets } from './http/static-assets';
import { trackInFlight } from './in-flight';
import type { LogDestination } from './logging/logger-options';
import type { RefusalLogOptions } from './logging/refusal-log';
import { createRealtime } from './realtime/create-realtime';
import { createRedisRegistry, type RedisRegistryTiming } from './realtime/presence/redis-registry';
import type { RedisLink } from './realtime/redis-adapter';
import type { RealtimeServer } from './realtime/types';
import { createReadiness } from './readiness';
import { createRateLimiters, type RateLimits } from './security/rate-limit';
import { createLocalSocketCap, createRedisSocketCap } from './security/socket-cap';
import { createLocalFileStorage, type FileStorage } from './storage/file-storage';
import { startUploadSweeper } from './storage/upload-sweeper';
import { createPushNotifier } from './push/push-notifier';
import type { VapidKeys } from './push/push-settings';
import { createMemoryVisibility, createRedisVisibility } from './push/visibility';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;
type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

export interface ServerDeps {
  /**
   * Unset values take the defaults (rateLimits: each budget left out, security/rate-limit-defaults.ts;
   * sessions: the default lifetimes); unset allowedOrigins: same origin only; nodeEnv 'production'
   * adds HSTS.
   */
  config: Pick<Config, 'port' | 'host' | 'logLevel'> &
    Partial<
      Pick<
        Config,
        | 'dataDir'
        | 'allowedOrigins'
        | 'nodeEnv'
        | 'shutdownDrainMs'
        | 'maxSocketsPerUser'
        | 'shedEventLoopDelayMs'
        | 'refusalHoldMs'
        | 'uploadQuotaBytes'
        | 'unattachedUploadTtlMs'
        | 'sessions'
        | 'messageWindows'
        | 'trustProxy'
      > & {
        rateLimits: Partial<RateLimits>;
      }
    >;
  /** Owned by the server from here on: close() closes it. */
  db: Database;
  verifier: FirebaseTokenVerifier;
  /** Several nodes (REDIS_URL): Socket.IO's Redis adapter. Owned by the server: close() closes it. */
  redis?: RedisLink;
  /** Where uploads go; by default `<dataDir>/uploads` on the local disk. */
  storage?: FileStorage;
  /** Next's request handler; without it, non-API paths answer 404 (split deployment, tests). */
  nextHandler?: RequestHandler;
  /** The build's static files, served from memory ahead of Next (production; http/static-assets.ts). */
  staticAssets?: StaticAssets;
  /** Next's upgrade handler (dev HMR websocket); without it, foreign upgrades are refused. */
  nextUpgradeHandler?: UpgradeHandler;
  /** Where the JSON log lines go; stdout by default (tests capture them). */
  logDestination?: LogDestination;
  /** Presence timings other than the defaults (tests): presence/presence.ts, presence/redis-registry.ts. */
  presence?: { offlineGraceMs?: number; registry?: RedisRegistryTiming };
  /** How refusals are summed up in the log (logging/refusal-log.ts); tests lengthen the interval. */
  refusalLog?: RefusalLogOptions;
  /** Web Push with these keys, to these push services; unset: no Web Push. */
  push?: { vapid: VapidKeys; endpointOrigins: readonly string[] };
  /** The socket protocols served; unset: this release's (realtime/handshake.ts). A test plays a later release with others. */
  socketProtocols?: readonly number[];
}

export interface ParleyServer {
  httpServer: ReturnType<typeof createHttpServer>;
  app: FastifyInstance;
  io: RealtimeServer;
  listen(port?: number, host?: string): Promise<{ port: number }>;
  /**
   * Graceful: /api/ready answers 503 at once; after config.shutdownDrainMs, stops accepting,
   * lets requests and socket events in flight finish (CLOSE_GRACE_MS at most), commits pending
   * messages, disconnects the sockets (clients reconnect to another node and catch up), then
   * closes Redis and the database.
   */
  close(): Promise<void>;
  /** True from the moment close() is called. */
  readonly draining: boolean;
}

const API_PATH = /^\/api(?:[/?#]|$)/;
const SOCKET_PATH = '/socket.io/';
// In-flight requests get this long to finish on close before their connections are cut.
const CLOSE_GRACE_MS = 2_000;
const KEEP_ALIVE_MS = 65_000;

/** One node server, one port: /api → Fastify, /socket.io → Socket.IO, everything else → Next. */
export function createServer(deps: ServerDeps): ParleyServer {
  const { config, db, verifier, redis, storage, nextHandler, nextUpgradeHandler, staticAssets, logDestination, refusalLog, presence, push, socketProtocols } = deps;
  // With Redis every node takes from the same budgets and counts the same sockets.
  const limiters = createRateLimiters(
    { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    { redis: redis?.commands, holdRefusalsMs: config.refusalHoldMs ?? DEFAULT_REFUSAL_HOLD_MS },
  );
  let draining = false;
  let fastifyHandler: RequestHandler = () => {};
  const toNext = (req: IncomingMessage, res: ServerResponse): void => {
    if (!nextHandler) return void sendNotFound(res);
    Promise.resolve(nextHandler(req, res)).catch((error: unknown) => {
      app.log.error({ err: error }, 'next request handler failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal server error');
    });
  };
  const httpServer = createHttpServer((req, res) => {
    if (API_PATH.test(req.url ?? '')) return void fastifyHandler(req, res);
    if (staticAssets && req.url?.startsWith(STATIC_PREFIX)) {
      return void staticAssets.serve(req, res).then(
        (served) => served || toNext(req, res),
        (error: unknown) => {
          app.log.error({ err: error }, 'static file failed');
          toNext(req, res);
        },
      );
    }
    toNext(req, res);
  });
  // Idle keep-alive connections stay open longer than a load balancer's (60 s) or a client's idle
  // timeout, so the client always closes first. Node's 5 s default lets a request race the
  // server's close and fail with ECONNRESET.
  httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
  httpServer.headersTimeout = KEEP_ALIVE_MS + 1_000;

  const files = storage ?? createLocalFileStorage(path.join(config.dataDir ?? '.data', 'uploads'));
  const { app, overloaded, refusals } = buildHttpApp({
    db: db.db,
    verifier,
    storage: files,
    uploadQuotaBytes: config.uploadQuotaBytes === undefined ? DEFAULT_UPLOAD_QUOTA_BYTES : config.uploadQuotaBytes,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy ?? false,
    logDestination,
    refusalLog,
    limiters,
    shedEventLoopDelayMs: config.shedEventLoopDelayMs ?? DEFAULT_SHED_EVENT_LOOP_DELAY_MS,
    production: config.nodeEnv === 'production',
    readiness: createReadiness({ db: db.db, redis, draining: () => draining }),
    allowedOrigins: config.allowedOrigins ?? null,
    push: push && { publicKey: push.vapid.publicKey, endpointOrigins: push.endpointOrigins },
    // Late-bound: the realtime layer needs app.log, the routes need the realtime layer.
    sockets: {
      disconnectUser: (userId) => realtime.disconnectUser(userId),
      disconnectSession: (sessionId) => realtime.disconnectSession(sessionId),
      notify: (userIds, event, ...args) => realtime.notify(userIds, event, ...args),
      notifyWatchers: (subjectId, userIds, event, ...args) => realtime.notifyWatchers(subjectId, userIds, event, ...args),
    },
    presence: {
      settingChanged: (userId, shown) => realtime.presence.settingChanged(userId, shown),
      review: (viewerId, subjectId) => realtime.presence.review(viewerId, subjectId),
    },
    serverFactory: (handler) => {
      fastifyHandler = handler;
      return httpServer;
    },
  });
  const maxSockets = config.maxSocketsPerUser ?? DEFAULT_MAX_SOCKETS_PER_USER;
  const sessionRules = config.sessions ?? DEFAULT_SESSION_RULES;
  const sessionAuth: SessionAuth = {
    rules: sessionRules,
    accountCheck: createAccountCheck({
      db: db.db,
      verifier,
      intervalMs: sessionRules.checkIntervalMs,
      log: app.log,
      disconnectSession: (sessionId) => realtime.disconnectSession(sessionId),
    }),
  };
  installSessionAuth(app, sessionAuth);
  // With several nodes, which users have a tab in view is known only across all of them.
  const visibility = redis ? createRedisVisibility(redis.commands) : createMemoryVisibility();
  const realtime = createRealtime(httpServer, {
    db: db.db,
    log: app.log,
    refusals,
    limiters,
    overloaded,
    socketCap: redis ? createRedisSocketCap(redis.commands, { cap: maxSockets, log: app.log }) : createLocalSocketCap({ cap: maxSockets }),
    allowedOrigins: config.allowedOrigins ?? null,
    adapter: redis?.adapter,
    sessionAuth,
    // Each process is a node of its own: a restarted one is new, and the old one's users expire.
    presenceRegistry: redis ? createRedisRegistry(redis.client, randomUUID(), presence?.registry) : undefined,
    offlineGraceMs: presence?.offlineGraceMs,
    visibility,
    push: push && createPushNotifier({ db: db.db, vapid: push.vapid, visibility, sessionRules, log: app.log }),
    windows: config.messageWindows ?? { editWindowMs: DEFAULT_EDIT_WINDOW_MS, unsendWindowMs: DEFAULT_UNSEND_WINDOW_MS },
    storage: files,
    protocols: socketProtocols,
  });
  const sweeper = startUploadSweeper({
    db: db.db,
    storage: files,
    ttlMs: config.unattachedUploadTtlMs ?? DEFAULT_UNATTACHED_UPLOAD_TTL_MS,
    log: app.log,
  });
  redis?.onOutage((event) => {
    if (event.down) app.log.warn({ err: event.error }, 'redis unreachable, reconnecting');
    else app.log.info('redis reachable again');
  });

  // Upgraded sockets no longer count as HTTP connections, yet they keep httpServer.close() waiting.
  const foreignUpgrades = new Set<Duplex>();
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (req.url?.startsWith(SOCKET_PATH)) return; // engine.io's own upgrade listener takes it
    if (!nextUpgradeHandler) return void socket.destroy();
    foreignUpgrades.add(socket);
    socket.once('close', () => foreignUpgrades.delete(socket));
    Promise.resolve(nextUpgradeHandler(req, socket, head)).catch((error: unknown) => {
      app.log.error({ err: error }, 'next upgrade handler failed');
      socket.destroy();
    });
  });

  const inFlight = trackInFlight(httpServer, realtime.io);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true; // /api/ready: 503, so a load balancer stops sending new traffic here
      if (config.shutdownDrainMs) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      // Stop accepting: no new connection; idle keep-alive ones close now, busy ones after their answer.
      const connectionsClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      inFlight.beginDraining();
      httpServer.closeIdleConnections();
      if (!(await inFlight.settled(CLOSE_GRACE_MS))) app.log.warn({ inFlight: inFlight.count }, 'closing with work still in flight');
      // Commits the pending messages, then disconnects every socket ("transport close": clients
      // reconnect, to another node behind a load balancer, and catch up there).
      await realtime.close();
      await sweeper.stop();
      for (const socket of foreignUpgrades) socket.destroy();
      const cut = setTimeout(() => httpServer.closeAllConnections(), CLOSE_GRACE_MS);
      await connectionsClosed;
      clearTimeout(cut);
      await app.close();
      await verifier.close?.();
      await redis?.close();
      await db.close();
    })());

  const listen = async (port = config.port, host = config.host) => {
    await app.ready();
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      // host undefined: every interface, IPv4 and IPv6.
      httpServer.listen({ port, host }, () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
    return { port: (httpServer.address() as AddressInfo).port };
  };

  return {
    httpServer,
    app,
    io: realtime.io,
    listen,
    close,
    get draining() {
      return draining;
    },
  };
}

function sendNotFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ msg: 'Not found' }));
}
