// Pieces every harness that runs the real server as a process shares (the fault test, the cluster
// test, the benchmarks): the repository root, a free loopback port, the production server bundle.
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/**
 * A child process of ours that never outlives this one (SIGKILL when this process exits), with a
 * promise that settles when it has exited. Stop it by its handle (`child.kill`), never by name.
 */
export function spawnOwned(command: string, args: string[], options: SpawnOptions): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(command, args, options);
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', orphanGuard);
      resolve();
    }),
  );
  return { child, exited };
}
export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Bundles server/main.ts with scripts/build-server.mjs into `<dir>/main.mjs` (never dist/server,
 * which someone may be running). Packages stay external, as for `npm start`, so a node_modules
 * link next to the bundle lets Node resolve them from the repository.
 */
export async function buildServerBundle(dir: string, sourceRoot = REPO_ROOT): Promise<string> {
  await mkdir(dir, { recursive: true });
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const outfile = path.join(dir, 'main.mjs');
  await run(process.execPath, ['scripts/build-server.mjs', '--outfile', outfile], { cwd: sourceRoot });
  return outfile;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The environment of a production server under test: API and socket only (no Next build needed),
 * on 127.0.0.1, no Auth emulator. FIREBASE_PROJECT_ID is required by the production config but
 * never called: every session is seeded. `DATABASE_URL: ''` means PGlite under dataDir, `S3_BUCKET: ''`
 * uploads under dataDir, whatever the calling shell has set.
 */
export function productionServerEnv(options: { port: number; dataDir: string; projectId: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    SERVE_NEXT: 'false',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    S3_BUCKET: '',
    S3_REGION: '',
    S3_ENDPOINT: '',
    S3_FORCE_PATH_STYLE: '',
    S3_ACCESS_KEY_ID: '',
    S3_SECRET_ACCESS_KEY: '',
    FIREBASE_PROJECT_ID: options.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: '',
    NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: '',
    ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'false',
  };
}

/** Resolves once `url` answers 200, polling; rejects after timeoutMs or when `exited()` says so. */
export async function waitForOk(url: string, options: { timeoutMs: number; exited?: () => string | null }): Promise<void> {
  const until = Date.now() + options.timeoutMs;
  while (Date.now() < until) {
    const exit = options.exited?.();
    if (exit !== null && exit !== undefined) throw new Error(`exited while starting (${exit})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer 200 within ${options.timeoutMs} ms`);
}
