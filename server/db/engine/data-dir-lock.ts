// PGlite admits one process per data folder: a second one would hand out the same ids and
// overwrite the first one's writes. Every opener takes this lock first (open-database.ts).
//
// The lock is the kernel's: an exclusive flock() on `<dir>.flock`, held through an open file for
// as long as this process lives. The kernel lets it go when the process ends in any way (close,
// crash, kill -9), and it holds across PID namespaces and hostnames, so two containers sharing a
// volume see each other's lock where pids and hostnames would tell them nothing. The file is
// never deleted: a deleted lock file lets a new opener lock a new file while an old opener still
// holds the old one. What it contains (pid, host, start) only names the holder in the refusal.
import { closeSync, constants, fchmodSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import fsExt from 'fs-ext-extra-prebuilt';
import { PRIVATE_FILE_MODE } from '../../security/private-files';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  /** The lock file; it stays on disk after release(). */
  readonly file: string;
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

// Lock files this process holds, to say "this process" rather than guess from a pid.
const heldHere = new Set<string>();

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? (holder as Holder) : null;
  } catch {
    return null; // not written yet by a holder that has just taken it
  }
}

function lockedError(dataDir: string, file: string): DataDirLockedError {
  const holder = readHolder(file);
  const who = heldHere.has(file)
    ? `this process (pid ${process.pid})`
    : holder
      ? `another Parley process (pid ${holder.pid}${holder.host === hostname() ? '' : ` on host ${holder.host}`}, started ${holder.startedAt})`
      : 'another Parley process';
  return new DataDirLockedError(
    `DATA_DIR is in use: ${dataDir} is open in ${who}. PGlite admits one process per data folder: stop that ` +
      `process first, or give this one its own DATA_DIR (several nodes need DATABASE_URL).`,
  );
}

const wouldBlock = (error: unknown) => ['EAGAIN', 'EWOULDBLOCK'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Takes the exclusive lock on the data folder `dir` for this process, or rejects with
 * DataDirLockedError naming the process that holds it. Nothing to take over after a crash: the
 * kernel released the dead holder's lock.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const file = `${path.resolve(dir)}.flock`;
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    fsExt.flockSync(fd, 'exnb');
  } catch (error) {
    closeSync(fd);
    throw wouldBlock(error) ? lockedError(path.resolve(dir), file) : error;
  }
  heldHere.add(file);
  fchmodSync(fd, PRIVATE_FILE_MODE); // as the rest of DATA_DIR, if an older umask left it open
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() } satisfies Holder), 0);
  // Earlier versions kept a folder of claims here; this lock supersedes it.
  await rm(`${dir}.lock`, { recursive: true, force: true });
  let released: Promise<void> | undefined;
  return {
    file,
    release: () =>
      (released ??= (async () => {
        heldHere.delete(file);
        closeSync(fd); // the kernel drops the lock with the last descriptor of this open
      })()),
  };
}
