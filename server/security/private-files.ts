// Our data (the database's files, its write-ahead log with message text in it, uploads) is for
// this process's user only: folders 0700, files 0600 (docs/DECISIONS.md, "Data on disk").
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
// Group and other: any of these bits means another local user may read or enter it.
const SHARED_BITS = 0o077;

/** A data folder is open to other users and could not be closed to them (not ours, read-only…). */
export class DataDirPermissionError extends Error {
  override name = 'DataDirPermissionError';
}

const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

async function tighten(target: string, mode: number): Promise<void> {
  try {
    await chmod(target, mode & ~SHARED_BITS & 0o7777);
  } catch (error) {
    if (vanished(error)) return;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new DataDirPermissionError(
      `${target} is readable by other users (mode ${octal(mode)}) and could not be made private (${code}): ` +
        `run Parley as the folder's owner, or chmod -R go-rwx it.`,
    );
  }
}

/**
 * Creates `dir` (and missing parents) as 0700, or takes group and other permissions off an
 * existing one: refused with DataDirPermissionError when that is not possible.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { mode } = await lstat(dir);
  if (mode & SHARED_BITS) await tighten(dir, mode);
}

/**
 * Takes group and other permissions off `dir` and everything below it (symbolic links are left
 * alone, never followed). PGlite writes some of its files 0666 and 0644 whatever the umask says.
 * A file removed while the walk runs (a database's temporary file) is skipped.
 */
export async function makeTreePrivate(dir: string): Promise<void> {
  let entries;
  try {
    const { mode } = await lstat(dir);
    if (mode & SHARED_BITS) await tighten(dir, mode);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await makeTreePrivate(target);
    } else if (entry.isFile()) {
      const stats = await lstat(target).catch((error: unknown) => {
        if (vanished(error)) return null;
        throw error;
      });
      if (stats && stats.mode & SHARED_BITS) await tighten(target, stats.mode);
    }
  }
}

/**
 * New files and folders of this process get no group or other permission. Process-wide, and only
 * possible on the main thread (worker threads cannot change it; there the explicit modes and
 * makeTreePrivate still apply).
 */
export function restrictUmask(): void {
  try {
    process.umask(SHARED_BITS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw error;
  }
}
