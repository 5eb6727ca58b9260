// Entry point: wiring only. The pieces are built and tested on their own (see app.ts).
import path from 'node:path';
import next from 'next';
import { createServer, type ServerDeps } from './app';
import { createStaticAssets } from './http/static-assets';
import { createFirebaseVerifier } from './auth/firebase-verifier';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/engine/open-database';
import { loadOrCreateVapidKeys } from './push/vapid-keys';
import { connectRedis } from './realtime/redis-adapter';
import { createS3FileStorage, type S3FileStorage } from './storage/s3-file-storage';

// A stuck shutdown (an open HMR websocket, a hung query) must not keep the process alive: past
// SHUTDOWN_DRAIN_MS and this, it exits 1. A normal one takes well under it (docs/DEPLOY.md).
const SHUTDOWN_TIMEOUT_MS = 10_000;
// Refusals whose message says all there is to say (what is wrong, what to do): no stack trace.
const EXPLAINED_ERRORS = new Set(['ConfigError', 'DataDirLockedError', 'DataDirPermissionError', 'PendingMigrationsError']);

/**
 * S3_BUCKET set: the bucket, checked before anything else starts. A bucket that refuses (missing,
 * wrong credentials, no permission) is a wrong setting: the node does not start. One that does not
 * answer may be away for a moment: the node starts, and uploads and downloads answer 503 until it is
 * back, while messaging goes on (docs/DECISIONS.md, "Uploads").
 */
async function openObjectStorage(config: Config): Promise<{ storage: S3FileStorage; unreachable: string | null } | undefined> {
  if (!config.objectStorage) return undefined;
  const storage = await createS3FileStorage(config.objectStorage, { spoolDir: path.join(config.dataDir, 'spool') });
  const check = await storage.check();
  if (check.ok) return { storage, unreachable: null };
  if (!check.refused) return { storage, unreachable: check.reason };
  storage.close();
  throw new ConfigError(`${check.reason}\nCheck S3_BUCKET, S3_ENDPOINT, S3_REGION and the credentials (docs/DEPLOY.md, "Object storage").`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const objectStorage = await openObjectStorage(config);
  const database = await openDatabase(config);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const verifier = createFirebaseVerifier({
    projectId: config.firebaseProjectId,
    authEmulatorHost: config.firebaseAuthEmulatorHost,
  });

  let nextApp: ReturnType<typeof next> | undefined;
  const handlers: Pick<ServerDeps, 'nextHandler' | 'nextUpgradeHandler' | 'staticAssets'> = {};
  if (config.serveNext) {
    nextApp = next({ dev: config.dev, dir: process.cwd(), hostname: config.host ?? 'localhost', port: config.port });
    await nextApp.prepare();
    handlers.nextHandler = nextApp.getRequestHandler();
    handlers.nextUpgradeHandler = nextApp.getUpgradeHandler();
    if (!config.dev) {
      // The build's output folder, as next.config.mjs names it (NEXT_DIST_DIR, else .next).
      handlers.staticAssets = createStaticAssets(path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'static'), {
        // As proxy.ts decides it for the pages.
        production: process.env.NODE_ENV === 'production',
      });
      void handlers.staticAssets.warm();
    }
  }

  const vapid = config.push.vapid === 'generate' ? await loadOrCreateVapidKeys(config.dataDir) : config.push.vapid;
  const push = vapid ? { vapid, endpointOrigins: config.push.endpointOrigins } : undefined;
  const server = createServer({ config, db: database, verifier, redis, storage: objectStorage?.storage, push, ...handlers });
  if (objectStorage?.unreachable) {
    server.app.log.warn({ reason: objectStorage.unreachable }, 'object storage unreachable at start; uploads and downloads answer 503 until it answers');
  }
  const { port } = await server.listen();
  // So a benchmark or an operator can see which limits this instance runs with.
  server.app.log.info(
    {
      allowedOrigins: config.allowedOrigins ?? 'same origin',
      rateLimits: config.rateLimits,
      maxSocketsPerUser: config.maxSocketsPerUser,
      shedEventLoopDelayMs: config.shedEventLoopDelayMs,
      refusalHoldMs: config.refusalHoldMs,
      uploadQuotaBytes: config.uploadQuotaBytes,
      unattachedUploadTtlMs: config.unattachedUploadTtlMs,
      messageWindows: config.messageWindows,
      database: config.databaseUrl ? 'postgres' : 'pglite',
      socketAdapter: redis ? 'redis' : 'in-process',
      uploads: objectStorage ? objectStorage.storage.description : `local folder ${path.join(config.dataDir, 'uploads')}`,
      webPush: push ? { endpointOrigins: push.endpointOrigins } : 'off (set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT)',
    },
    'limits',
  );
  const shutdown = (signal: string) => {
    server.app.log.info(`${signal} received, shutting down`);
    setTimeout(() => {
      console.error(`Shutdown did not finish within ${(config.shutdownDrainMs + SHUTDOWN_TIMEOUT_MS) / 1000} s; exiting.`);
      process.exit(1);
    }, config.shutdownDrainMs + SHUTDOWN_TIMEOUT_MS).unref();
    server
      .close()
      .then(() => nextApp?.close())
      .then(() => objectStorage?.storage.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('Shutdown failed:', error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  // Only now: whoever waits for this line may stop the server the moment it reads it. Printed
  // before the handlers, a loaded machine let a test's SIGTERM land between the two and end the
  // process by the signal's default (exit code null, not 0).
  console.log(`Parley ready on http://localhost:${port}`);
}

main().catch((error: unknown) => {
  console.error('Parley failed to start:', error instanceof Error ? error.message : error);
  if (error instanceof Error && !EXPLAINED_ERRORS.has(error.name)) console.error(error.stack);
  process.exit(1);
});
