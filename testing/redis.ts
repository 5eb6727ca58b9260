// A throwaway Redis (the cluster test, bench --nodes): redis-server on 127.0.0.1 and a free port,
// its files in a temporary directory, no persistence; never the system service. It can be
// stopped and started again on the same port (the "Redis restarts mid-traffic" case).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { freePort, spawnOwned } from './processes';

export interface ThrowawayRedis {
  url: string;
  port: number;
  /** Starts it again on the same port after stop()/kill(). */
  start(): Promise<void>;
  /** SIGTERM, resolves when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL: no goodbye to its clients. */
  kill(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

/** redis-server from PATH or Debian's /usr/bin. */
function redisServerPath(): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/bin']) {
    if (dir && existsSync(path.join(dir, 'redis-server'))) return path.join(dir, 'redis-server');
  }
  return null;
}

export async function startRedis(dir: string): Promise<ThrowawayRedis> {
  const binary = redisServerPath();
  if (!binary) throw new Error('redis-server not found: npm run test:setup installs it (apt-get install redis-server).');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  async function start(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) throw new Error('redis already running');
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
    const owned = spawnOwned(binary!, args, { stdio: 'ignore' });
    child = owned.child;
    exited = owned.exited;
    await waitForPong(port, owned.child);
  }

  async function signal(name: NodeJS.Signals): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(name); // our own child, by its handle
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}

async function waitForPong(port: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`redis-server exited while starting (${child.exitCode})`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not answer PING within ${READY_TIMEOUT_MS} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    let reply = '';
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
