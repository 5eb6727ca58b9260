// Starts PGlite in its worker thread (pglite-worker.mjs) and answers for it: where its socket is,
// how it closes, and what happens when it dies.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ensurePrivateDir } from '../../security/private-files';

/** The name node-postgres looks for in a socket folder (`host`), for port 5432. */
const SOCKET_NAME = '.s.PGSQL.5432';
// sun_path holds 108 bytes on Linux, the terminating zero included.
const MAX_SOCKET_PATH = 107;

class PgliteWorkerError extends Error {
  override name = 'PgliteWorkerError';
}

export interface PgliteHost {
  /** The folder holding the socket: node-postgres' `host`. */
  readonly socketDir: string;
  /** Stops the worker (PGlite closes its files first); the host's error handler is not called. */
  close(): Promise<void>;
  /** The thread itself: tests end it to see what a crash does. */
  readonly worker: Worker;
}

export interface PgliteHostOptions {
  /** PGlite's folder; null keeps the database in memory. */
  dataDir: string | null;
  /** Called once when the worker dies or fails while open (never after close()). */
  onCrash: (error: PgliteWorkerError) => void;
  /**
   * Called when one round trip held PGlite for `slowMs` or more (everything else waited that
   * long), with its statements' kinds, never their values. Default: one line on stderr.
   */
  onSlow?: (slow: { ms: number; statements: string }) => void;
  slowMs?: number;
}

/** A round trip that holds PGlite this long stalls every request; worth a line. */
const SLOW_STATEMENT_MS = 500;

const slowOnStderr = ({ ms, statements }: { ms: number; statements: string }) =>
  void process.stderr.write(`PGlite: one round trip held the database for ${ms} ms: ${statements}\n`);

/**
 * The socket lives in a private folder beside the data, `<dataDir>.socket/` (0700: only this
 * user may connect, like the data itself). In memory, or when that path is too long for a socket,
 * a private temporary folder is used instead and removed on close.
 */
async function socketFolder(dataDir: string | null): Promise<{ dir: string; temporary: boolean }> {
  if (dataDir) {
    const dir = path.resolve(`${dataDir}.socket`);
    if (Buffer.byteLength(path.join(dir, SOCKET_NAME)) <= MAX_SOCKET_PATH) {
      await ensurePrivateDir(dir);
      return { dir, temporary: false };
    }
  }
  return { dir: await mkdtemp(path.join(tmpdir(), 'parley-pglite-')), temporary: true };
}

export async function startPgliteWorker({ dataDir, onCrash, onSlow = slowOnStderr, slowMs = SLOW_STATEMENT_MS }: PgliteHostOptions): Promise<PgliteHost> {
  const socket = await socketFolder(dataDir);
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, socketPath: path.join(socket.dir, SOCKET_NAME), slowMs },
    // The worker has nothing to read from the server's stdin nor its own environment to change.
    stdin: false,
  });
  let state: 'starting' | 'open' | 'closing' | 'closed' = 'starting';
  let lastFailure: string | null = null;

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { type: string; message?: string; ms?: number; statements?: string }) => {
      if (message.type === 'slow') onSlow({ ms: message.ms ?? 0, statements: message.statements ?? '' });
      else if (message.type === 'ready') {
        state = 'open';
        resolve();
      } else if (message.type === 'failed') {
        lastFailure = message.message ?? 'unknown failure';
      }
    });
    worker.on('error', (error) => {
      lastFailure = error.message;
    });
    worker.on('exit', (code) => {
      const why = lastFailure ?? `its thread exited with code ${code}`;
      const error = new PgliteWorkerError(`PGlite's worker stopped: ${why}`);
      if (state === 'starting') reject(error);
      else if (state === 'open') onCrash(error);
      state = 'closed';
      if (socket.temporary) void rm(socket.dir, { recursive: true, force: true });
    });
  });

  try {
    await ready;
  } catch (error) {
    if (socket.temporary) await rm(socket.dir, { recursive: true, force: true });
    throw error;
  }

  return {
    socketDir: socket.dir,
    worker,
    close: async () => {
      if (state !== 'open') return;
      state = 'closing';
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' });
      await exited;
    },
  };
}

/**
 * A server whose database is gone can answer nothing truthfully: one line on stderr, and the
 * process ends (its data-folder claim is then a dead process's, taken over by the next start).
 */
export function exitOnCrash(error: Error): void {
  process.stderr.write(`${error.message}; exiting.\n`);
  process.exit(1);
}
