// `npm run bench`: measures delivery, the floor relay, idle connections and the front end on this
// machine, prints a table and writes every figure to bench/results/<timestamp>.json.
// Method and the latest figures: BENCHMARKS.md. Nothing here asserts a time.
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import webPush from 'web-push';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchUser } from './clients';
import { runConnections } from './connections';
import { runDeliveryAgainst } from './delivery';
import { runFlood } from './flood';
import { runFrontend } from './frontend/index';
import { runSearch } from './search';
import { parseOptions } from './options';
import { startPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { startRedis, type ThrowawayRedis } from '../testing/redis';
import { REPO_ROOT, buildServerBundle, freePort, runTs, startFloor, startServer } from './processes';
import { summariseProfiles } from './profile';
import type { BenchResults } from './results';
import { buildTable, printTable } from './table';

const log = (line: string) => process.stdout.write(`${line}\n`);

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function environment(): Record<string, unknown> {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  let chromium = 'not found';
  try {
    chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // left as not found
  }
  const cpus = os.cpus();
  return {
    host: os.hostname(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    socketIo: version('socket.io'),
    socketIoClient: version('socket.io-client'),
    pglite: version('@electric-sql/pglite'),
    next: version('next'),
    chromium,
    database: process.env.DATABASE_URL ? 'postgres (DATABASE_URL)' : 'PGlite (embedded, under DATA_DIR)',
    commit: git('rev-parse', '--short', 'HEAD'),
    // Others edit this tree too: whether the measured code had uncommitted changes.
    uncommittedChanges: git('status', '--porcelain', '--untracked-files=no', '--', 'server', 'lib', 'app', 'components') !== '',
    nofileLimit: execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim(),
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

async function seed(dir: string, count: number, prefix: string, extra: string[] = []): Promise<{ users: BenchUser[]; messages: number; seedMs: number }> {
  const dataDir = path.join(dir, `data-${prefix}`);
  const out = path.join(dir, `users-${prefix}.json`);
  await runTs(path.join(REPO_ROOT, 'bench', 'seed.ts'), ['--data-dir', dataDir, '--count', String(count), '--prefix', prefix, '--out', out, ...extra]);
  return JSON.parse(await readFile(out, 'utf8')) as { users: BenchUser[]; messages: number; seedMs: number };
}

async function startPushSink(): Promise<{ url: string; serverEnv: Record<string, string>; received: () => number }> {
  let received = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const keys = webPush.generateVAPIDKeys();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serverEnv: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:bench@parley.example',
      PUSH_ENDPOINT_ORIGINS: 'http://127.0.0.1',
    },
    received: () => received,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const results: BenchResults = { startedAt: startedAt.toISOString(), environment: environment(), options, errors: [] };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-'));
  let postgres: ThrowawayPostgres | undefined;
  let redis: ThrowawayRedis | undefined;
  // Several nodes share one database: a Postgres, never a PGlite directory per node.
  if (options.postgres || (options.nodes > 1 && !process.env.DATABASE_URL)) {
    postgres = await startPostgres(path.join(dir, 'pg'));
    process.env.DATABASE_URL = postgres.url;
    results.environment.database = `${postgres.version}, throwaway cluster`;
    log(`throwaway ${postgres.version} on ${postgres.url}`);
  }
  if (options.nodes > 1) {
    redis = await startRedis(path.join(dir, 'redis'));
    results.environment.redis = `throwaway redis-server on ${redis.url}`;
    log(`throwaway Redis on ${redis.url} for ${options.nodes} nodes`);
  }
  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  const stamp = `${startedAt.toISOString().replace(/[:.]/g, '-')}${options.smoke ? '-smoke' : ''}`;
  log(`Parley benchmark ${options.smoke ? '(smoke) ' : ''}— sections: ${options.sections.join(', ')}; work dir ${dir}`);
  log(`load average at start: ${(results.environment.loadAverageAtStart as number[]).join(' ')} on ${os.cpus().length} cores`);

  const wants = (section: string) => options.sections.includes(section as never);
  // --push: a push service on loopback that answers every push 201 at once, so what is measured
  // is the server's own work (deciding, encrypting, sending) next to the send path.
  const pushSink = options.push ? await startPushSink() : undefined;
  if (pushSink) log(`Web Push on: every user subscribed at ${pushSink.url}`);
  let bundle: Promise<string> | undefined;
  const serverBundle = () => (bundle ??= buildServerBundle(path.join(dir, 'build')));
  const section = async (name: string, run: () => Promise<void>) => {
    log(`\n▶ ${name}`);
    try {
      await run();
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.errors.push({ section: name, message });
      log(`  ${name} failed: ${message}`);
    }
  };

  let deliveryUsers: BenchUser[] | undefined;
  const usersFor = async () => {
    if (!deliveryUsers) {
      const seeded = await seed(dir, options.users, 'bench', pushSink ? ['--push-endpoint', `${pushSink.url}/push`] : []);
      deliveryUsers = seeded.users;
      log(`  seeded ${seeded.users.length} users with sessions in ${seeded.seedMs} ms`);
    }
    return deliveryUsers;
  };

  if (wants('floor')) {
    await section('floor (bare Socket.IO relay)', async () => {
      const users = await usersFor();
      const port = await freePort();
      const start = async () => [await startFloor({ port, logFile: path.join(dir, 'floor.log') })];
      results.floor = await runDeliveryAgainst('floor', start, [`http://127.0.0.1:${port}`], users, options, log);
    });
  }

  if (wants('delivery')) {
    await section('delivery (production server)', async () => {
      const [users, entry] = await Promise.all([usersFor(), serverBundle()]);
      const ports: number[] = [];
      while (ports.length < options.nodes) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      const env = { ...(redis ? { REDIS_URL: redis.url } : {}), ...(pushSink ? pushSink.serverEnv : {}) };
      // One after the other: the first applies any migrations, the others find them done.
      const start = async () => {
        const servers = [];
        for (const [node, port] of ports.entries()) {
          servers.push(await startServer({ entry, port, dataDir: path.join(dir, 'data-bench'), logFile: path.join(dir, `server-delivery-${node}.log`), env }));
        }
        return servers;
      };
      const profileFile = options.profile ? path.join(resultsDir, `${stamp}-steady.cpuprofile`) : undefined;
      const urls = ports.map((port) => `http://127.0.0.1:${port}`);
      results.delivery = await runDeliveryAgainst('parley', start, urls, users, options, log, profileFile);
      if (pushSink) log(`  pushes the push service received: ${pushSink.received()}`);
      if (profileFile) {
          results.profile = await summariseProfiles(profileFile);
          log(`  profile of the steady phase: ${path.relative(REPO_ROOT, profileFile)} (open it in Chrome DevTools), idle ${results.profile.idlePercent}%`);
          for (const row of results.profile.top.slice(0, 15)) log(`    ${row.busyPercent.toFixed(1).padStart(5)}% of busy  ${row.name}  ${row.location}`);
          for (const row of results.profile.byArea.slice(0, 8)) log(`    ${row.busyPercent.toFixed(1).padStart(5)}% of busy  ${row.area}`);
      }
    });
  }

  if (wants('connections')) {
    await section('connections (authenticated idle sockets)', async () => {
      const entry = await serverBundle();
      results.connections = await runConnections({ dir, entry, sockets: options.sockets, idleS: options.idleS, seed, log });
    });
  }

  if (wants('flood')) {
    await section('flood (one account floods one path at a time, other people send)', async () => {
      const entry = await serverBundle();
      results.flood = await runFlood({
        dir,
        entry,
        seed,
        log,
        loops: options.floodLoops,
        durationS: options.floodDurationS,
        victims: options.floodVictims,
        rounds: options.floodRounds,
        thread: options.floodThread,
        paths: options.floodPaths,
        ...(options.profile ? { profilePrefix: path.join(resultsDir, `${stamp}-flood`) } : {}),
      });
    });
  }

  if (wants('frontend')) {
    await section('front end (production build in Chromium)', async () => {
      results.frontend = await runFrontend({ dir, thread: options.thread, conversations: options.conversations, missed: options.missed, lighthouseRuns: options.lighthouseRuns, keep: options.keep, seed, log });
    });
  }

  if (wants('search')) {
    await section(`search in messages and people (${options.searchMessages} messages, ${options.searchUsers} people)`, async () => {
      results.search = await runSearch({ dir, messages: options.searchMessages, users: options.searchUsers, queries: options.searchQueries, log });
    });
  }

  await redis?.stop();
  await postgres?.stop();
  results.finishedAt = new Date().toISOString();
  results.environment.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
  results.table = buildTable(results);
  log('');
  printTable(results.table, log);
  log(`\nload average at start ${(results.environment.loadAverageAtStart as number[]).join(' ')}, at end ${(results.environment.loadAverageAtEnd as number[]).join(' ')} (${os.cpus().length} cores)`);
  if (results.errors.length) log(`errors in: ${results.errors.map((error) => error.section).join(', ')}`);

  const file = path.join(resultsDir, `${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(file, json);
  log(`figures: ${path.relative(REPO_ROOT, file)}`);
  if (options.keep) log(`kept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
  process.exitCode = results.errors.length ? 1 : 0;
}

await main();
// Sockets, timers or a stray child handle must not keep a finished benchmark alive.
process.exit();
