import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { sendFile } from './send-file';
import { writeToFile } from './write-to-file';
import { ensurePrivateDir } from '../security/private-files';


/** Bytes `start` to `end` of a file, both included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A local file opened for one download: `send` writes the whole response (send-file.ts), `close` lets the file go. */
interface OpenFile {
  send(range: ByteRange, response: ServerResponse, status: number, headers: OutgoingHttpHeaders): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where uploaded files live: a local folder (createLocalFileStorage) or an S3-compatible bucket
 * (createS3FileStorage). Keys are chosen by the server, never by a client.
 */
export interface FileStorage {
  /**
   * Stores the stream under `key`, all or nothing: on any error, abort or `maxBytes` overrun nothing
   * is left behind and the promise rejects (with FileTooLargeError for the limit).
   */
  write(key: string, stream: Readable, options: { maxBytes: number }): Promise<{ bytes: number }>;
  /** The stored bytes (only `range` of them if given, which must lie inside the file), or null when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /**
   * A local folder only: the file opened to be sent through reused buffers (send-file.ts), or null
   * when there is no such file. Without it (an object store) a download streams `read`.
   */
  open?(key: string): Promise<OpenFile | null>;
  /** Removing a file that is not there is not an error. */
  remove(key: string): Promise<void>;
}

/** The storage itself failed (an object store that does not answer, or refuses): the caller answers 503 and logs it. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

const KEY = /^[A-Za-z0-9_-]{1,128}$/;
const TEMP_PREFIX = '.tmp-';

export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * A write's temporary file lives seconds (uploads are capped at tens of MB); one an hour old was
 * left by a process that died mid-write (kill -9, a power cut) and nothing will ever rename it.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** Removes the temporary files in `dir` older than `STALE_TEMP_MS`; the rest is untouched. */
async function removeStaleTempFiles(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null); // gone meanwhile: renamed into place or removed
    if (!info?.isFile() || now - info.mtimeMs < STALE_TEMP_MS) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * A directory created on first use (again after a failure), with what a crashed write left in it
 * removed then: the files are people's attachments, and nothing else would ever delete them.
 */
export function lazyDirectory(dir: string): () => Promise<unknown> {
  let ready: Promise<unknown> | undefined;
  return () =>
    (ready ??= ensurePrivateDir(dir)
      .then(() => removeStaleTempFiles(dir))
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      }));
}

/** A name in `dir` no other write uses: dot-prefixed, so never taken for a stored key. */
export const tempFileIn = (dir: string, key: string) => path.join(dir, `${TEMP_PREFIX}${key}-${randomBytes(6).toString('hex')}`);

/**
 * Files in one local directory. A write goes to a dot-prefixed temporary file in the same directory
 * and is renamed into place only once complete, so a partial file is never visible under its key.
 * The directory is 0700 and the files 0600, whatever the umask: they are people's attachments.
 */
export function createLocalFileStorage(dir: string): FileStorage {
  const ensureDir = lazyDirectory(dir);
  const fileOf = (key: string) => path.join(dir, checkKey(key));

  return {
    async write(key, stream, { maxBytes }) {
      const target = fileOf(key);
      await ensureDir();
      const temp = tempFileIn(dir, key);
      const { bytes } = await writeToFile(stream, temp, { maxBytes });
      try {
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return { bytes };
    },

    async read(key, range) {
      try {
        const handle = await open(fileOf(key), 'r');
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async open(key) {
      try {
        const handle = await open(fileOf(key), 'r');
        return {
          send: (range, response, status, headers) => sendFile(handle, range.start, range.end, response, status, headers),
          close: () => handle.close(),
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
