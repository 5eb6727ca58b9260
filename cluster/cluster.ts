// Two production server nodes sharing one throwaway PostgreSQL, one throwaway Redis and one
// throwaway S3-compatible bucket for uploads, all on loopback under a temporary directory (never
// the system services), with seeded users. Each node keeps its own DATA_DIR.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverProcess, type ServerProcess } from '../faults/server-process';
import { openDatabase, type Database } from '../server/db/engine/open-database';
import { RATE_LIMIT_NAMES, rateLimitVar } from '../server/security/rate-limit';
import { seedUsers, type SeededUser } from '../testing/seed';
import { startPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { buildServerBundle, freePort } from '../testing/processes';
import { startRedis, type ThrowawayRedis } from '../testing/redis';
import { startS3, type ThrowawayS3 } from '../testing/s3';
import { waitUntil } from '../testing/wait';
import { Tab } from './tab';

/** The one budget left on (search: no other case uses it), to show it shared between the nodes. */
export const SEARCH_BUDGET = 10;
/** Sockets per user across both nodes; the other cases hold at most three per user. */
export const SOCKET_CAP = 4;
// The other per-user limits are off: the test's pace is far below them anyway, but a refusal
// would only slow the outbox down and blur what is measured. So is load shedding: on a busy
// machine it would answer sends "busy" (retried) and time the machine, not the failover.
const LIMITS_ENV = {
  // The probes toggle one pair's follow until it crosses nodes: follow_pair is off with the rest.
  ...Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [rateLimitVar(name), 'off'])),
  RATE_LIMIT_SEARCH: `${SEARCH_BUDGET}/h,burst=${SEARCH_BUDGET}`,
  MAX_SOCKETS_PER_USER: String(SOCKET_CAP),
  SHED_EVENT_LOOP_DELAY_MS: '0',
};
const MESHED_TIMEOUT_MS = 30_000;
/**
 * Node A's SHUTDOWN_DRAIN_MS: on SIGTERM it keeps serving this long with /api/ready at 503, long
 * enough for the graceful hand-over case to see it on a busy machine, short enough not to slow it.
 */
export const DRAIN_MS_A = 750;
/** How long one probe waits for its event before trying again. */
const PROBE_WAIT_MS = 1_000;

export interface Cluster {
  readonly a: ServerProcess;
  readonly b: ServerProcess;
  readonly postgres: ThrowawayPostgres;
  readonly redis: ThrowawayRedis;
  /** The shared bucket the nodes keep uploads in. */
  readonly s3: ThrowawayS3;
  /** The shared database, for seeding and for checking what was stored. */
  readonly database: Database;
  /** Seeded users, each with a live session; `take(n)` hands out ones no other test used. */
  take(count: number): SeededUser[];
  /**
   * Resolves once an event emitted on each node reaches a socket on the other (each node's adapter
   * reads the shared stream). Two users kept for it follow and unfollow each other until it does.
   */
  meshed(): Promise<void>;
  /** Where the logs are (kept when CLUSTER_KEEP_DIR is set). */
  readonly dir: string;
}

export interface ClusterHandle {
  start(): Promise<Cluster>;
  /** Stops whatever was started, by handle, and removes the directory. */
  stop(): Promise<void>;
}

export function createCluster(options: { users: number }): ClusterHandle {
  let dir: string | undefined;
  let postgres: ThrowawayPostgres | undefined;
  let redis: ThrowawayRedis | undefined;
  let s3: ThrowawayS3 | undefined;
  let database: Database | undefined;
  const nodes: ServerProcess[] = [];

  async function start(): Promise<Cluster> {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-cluster-'));
    const base = dir;
    // Independent, so side by side; each is kept as soon as it exists, and all have settled
    // before a failure is thrown, so stop() finds everything that started.
    const settled = await Promise.allSettled([
      buildServerBundle(path.join(base, 'build')),
      startPostgres(path.join(base, 'postgres')).then((started) => (postgres = started)),
      startRedis(path.join(base, 'redis')).then((started) => (redis = started)),
      startS3(path.join(base, 's3')).then((started) => (s3 = started)),
    ]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    const entry = (settled[0] as PromiseFulfilledResult<string>).value;
    const pg = postgres!;
    const shared = redis!;
    const bucket = s3!;
    // Migrating here, once, means the nodes start on an up-to-date schema.
    database = await openDatabase({ databaseUrl: pg.url });
    const [probeA, probeB, ...users] = await seedUsers(database.db, { count: options.users + 2, prefix: 'cluster' });

    const node = (name: string, port: number, env: Record<string, string> = {}) =>
      serverProcess({
        entry,
        port,
        dataDir: path.join(base, `node-${name}`),
        logFile: path.join(base, `node-${name}.log`),
        env: { DATABASE_URL: pg.url, REDIS_URL: shared.url, ...bucket.env, ...LIMITS_ENV, ...env },
        // As a load balancer would: a node counts once its database and Redis answer.
        readyPath: '/api/ready',
      });
    // Chosen only now: a port found free before the database was migrated and seeded could since
    // have become the local end of one of those connections (ephemeral ports come from the same range).
    const [portA, portB] = await Promise.all([freePort(), freePort()]);
    const a = node('a', portA, { SHUTDOWN_DRAIN_MS: String(DRAIN_MS_A) });
    const b = node('b', portB);
    nodes.push(a, b);
    await Promise.all([a.start(), b.start()]);

    let next = 0;
    // Whether each probe user follows the other now.
    const follows = new Map<number, boolean>();
    const cluster: Cluster = {
      a,
      b,
      postgres: pg,
      redis: shared,
      s3: bucket,
      database,
      dir: base,
      take(count) {
        if (next + count > users.length) throw new Error(`only ${users.length} users seeded`);
        next += count;
        return users.slice(next - count, next);
      },
      meshed: () => meshed(a, b, probeA!, probeB!, follows),
    };
    await cluster.meshed();
    return cluster;
  }

  async function stop(): Promise<void> {
    await Promise.all(nodes.map((node) => node.stop()));
    await database?.close();
    await Promise.all([redis?.stop(), postgres?.stop(), s3?.stop()]);
    if (dir && !process.env.CLUSTER_KEEP_DIR) await rm(dir, { recursive: true, force: true });
    else if (dir) console.log(`cluster files kept in ${dir}`);
  }

  return { start, stop };
}

async function meshed(a: ServerProcess, b: ServerProcess, userA: SeededUser, userB: SeededUser, follows: Map<number, boolean>): Promise<void> {
  const tabA = new Tab('probe on A', a.url, userA);
  const tabB = new Tab('probe on B', b.url, userB);
  try {
    await Promise.all([tabA.open(), tabB.open()]);
    const until = Date.now() + MESHED_TIMEOUT_MS;
    for (const [from, to] of [
      [tabA, tabB],
      [tabB, tabA],
    ] as const) {
      for (let attempt = 1; ; attempt++) {
        // A toggle is a real change every time, so the followee always hears of it.
        const following = !follows.get(from.user.id);
        const heard = (event: { follower_id: number; following: boolean }) => event.follower_id === from.user.id && event.following === following;
        const before = to.received('follower', heard).length;
        await from.call('follow', { user_id: to.user.id, follow: following });
        follows.set(from.user.id, following);
        const arrived = await waitUntil(() => to.received('follower', heard).length > before, { timeoutMs: PROBE_WAIT_MS, what: 'probe' })
          .then(() => true)
          .catch(() => false);
        if (arrived) break;
        if (Date.now() > until) {
          throw new Error(`nodes not meshed within ${MESHED_TIMEOUT_MS / 1000} s: ${from.label} → ${to.label} never arrived (${attempt} tries)`);
        }
      }
    }
  } finally {
    tabA.close();
    tabB.close();
  }
}
