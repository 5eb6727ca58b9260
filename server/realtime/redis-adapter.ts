// Socket.IO across several nodes (REDIS_URL): every broadcast goes through Redis so a user's
// sockets on other nodes get it too. Without REDIS_URL nothing here runs (in-process adapter), and
// the Redis client and adapter packages are not even loaded (2.7 MB of heap a node without Redis
// would carry for nothing: docs/DECISIONS.md, "Optional backends load only when configured").
import type { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import { withTimeout } from '../with-timeout';

/** An outage starting (with the error that revealed it) or ending. */
type RedisOutageEvent = { down: true; error: Error } | { down: false };

/** What the realtime layer and the readiness check need from Redis. */
export interface RedisLink {
  /** Socket.IO's `adapter` option. */
  adapter: ReturnType<typeof createAdapter>;
  /**
   * A connection for the per-user limits, the socket cap and which users have a tab in view,
   * kept apart from the adapter's: a command fails at once while Redis is away (no offline queue)
   * or after COMMAND_TIMEOUT_MS, so the callers fall back to this node's own counting (or, for a
   * push, to sending it) instead of holding every event up.
   */
  commands: Redis;
  /** The connected client, for the presence registry's keys (realtime/presence/redis-registry.ts). */
  client: Redis;
  /** Resolves when Redis answers PING within `timeoutMs`; rejects otherwise (never waits in a queue). */
  ping(timeoutMs: number): Promise<void>;
  /** Called once when an outage starts and once when it ends, not per reconnection attempt. */
  onOutage(listener: (event: RedisOutageEvent) => void): void;
  /** After io.close() (which stops the adapter's own readers): closes the publishing client. */
  close(): Promise<void>;
}

// Reconnect quickly and keep trying: after Redis comes back, cross-node delivery resumes within
// about a second (the issue asks for 5 s). ioredis' default backs off to 5 s.
const RETRY_BASE_MS = 50;
const RETRY_MAX_MS = 1_000;
/**
 * Publishes issued while Redis is away wait in ioredis' offline queue and go out on reconnect, so
 * a restart of a few seconds loses no broadcast. Past this many reconnection attempts (about 7 s
 * with the delays above) they fail: the adapter then delivers to this node's sockets only, and
 * other nodes' clients get those messages from their gap check or their next catch-up
 * (docs/DELIVERY.md). The adapter awaits each publish before delivering locally, so an unbounded
 * queue would hold local delivery for as long as Redis is down.
 */
const MAX_RETRIES_PER_REQUEST = 10;
/** Start-up fails (and the orchestrator restarts us) rather than running half-connected. */
const CONNECT_TIMEOUT_MS = 10_000;
// The adapter's readers block in XREAD for 5 s; a connection that died silently (no RST) is
// given up on a little after that instead of waiting for TCP keep-alive.
const BLOCKING_TIMEOUT_MS = 10_000;
const QUIT_TIMEOUT_MS = 1_000;
/** A limit check waits no longer than this for Redis before the node counts on its own. */
const COMMAND_TIMEOUT_MS = 500;

/** Exported for its test: the delay before reconnection attempt `times` (1, 2, …). */
export function retryDelay(times: number): number {
  const jitter = Math.floor(Math.random() * RETRY_BASE_MS);
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, times - 1), RETRY_MAX_MS) + jitter;
}

/**
 * Connects to Redis (waiting until it answers) and builds the Redis Streams adapter. Later
 * outages are reported through onOutage (the server logs them); ioredis reconnects by itself and
 * the adapter resumes reading its stream where it stopped. Connection errors never reach the
 * process: the client has an `error` listener, and so do the adapter's own duplicates.
 */
export async function connectRedis(url: string, { connectTimeoutMs = CONNECT_TIMEOUT_MS } = {}): Promise<RedisLink> {
  const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-streams-adapter')]);
  const client = new Redis(url, {
    connectionName: 'parley',
    retryStrategy: retryDelay,
    maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST,
    blockingTimeout: BLOCKING_TIMEOUT_MS,
  });
  const listeners: Array<(event: RedisOutageEvent) => void> = [];
  let down = false;
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
    if (down) return;
    down = true;
    for (const listener of listeners) listener({ down: true, error });
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    for (const listener of listeners) listener({ down: false });
  });

  const commands = client.duplicate({ connectionName: 'parley-limits', enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS });
  // Its outages are the same as the main client's, which reports them.
  commands.on('error', () => {});

  try {
    await Promise.all([waitUntilReady(client, connectTimeoutMs), waitUntilReady(commands, connectTimeoutMs)]);
  } catch (error) {
    client.disconnect();
    commands.disconnect();
    throw lastError ? new Error(`${(error as Error).message}: ${lastError.message}`, { cause: lastError }) : error;
  }

  return {
    // One stream entry per broadcast (a message is two: `message` and `message_sent`). The
    // default cap, 10,000 entries, is two seconds at 5,000 msg/s: a node reading 100 entries per
    // XREAD fell behind the trimming and missed broadcasts (bench --nodes 2, peak phase). A
    // longer stream and larger reads keep every node ahead; missed ones are still caught up by
    // the clients' seq gap check, but live delivery should not depend on it.
    adapter: createAdapter(client, { maxLen: STREAM_MAX_LEN, readCount: STREAM_READ_COUNT }),
    commands,
    client,
    onOutage: (listener) => void listeners.push(listener),
    ping: async (timeoutMs) => {
      // Not connected: say so now rather than queue a PING behind the reconnection.
      if (client.status !== 'ready') throw new Error(`redis is ${client.status}`);
      await withTimeout(client.ping(), timeoutMs, 'redis did not answer PING');
    },
    close: async () => {
      // QUIT only when connected: while Redis is away it would wait in the offline queue.
      for (const connection of [commands, client]) {
        if (connection.status === 'ready') await withTimeout(connection.quit(), QUIT_TIMEOUT_MS, 'redis QUIT').catch(() => undefined);
        connection.disconnect();
      }
    },
  };
}

const STREAM_MAX_LEN = 100_000;
const STREAM_READ_COUNT = 1_000;

function waitUntilReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return withTimeout(
    new Promise<void>((resolve) => client.once('ready', () => resolve())),
    timeoutMs,
    `redis not reachable within ${timeoutMs / 1000} s`,
  );
}
