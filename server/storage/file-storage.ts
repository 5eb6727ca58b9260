import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../security/private-files';

/** Where uploaded files live. Keys are chosen by the server, never by a client. */
export interface FileStorage {
  /**
   * Stores the stream under `key`, all or nothing: on any error, abort or `maxBytes` overrun nothing
   * is left behind and the promise rejects (with FileTooLargeError for the limit).
   */
  write(key: string, stream: Readable, options: { maxBytes: number }): Promise<{ bytes: number }>;
  /** The stored bytes, or null when there is no such file. */
  read(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
}

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
  }
}

const KEY = /^[A-Za-z0-9_-]{1,128}$/;
const TEMP_PREFIX = '.tmp-';

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Counts bytes on the way through and fails the pipeline as soon as there are more than maxBytes. */
class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new FileTooLargeError(this.maxBytes));
    done(null, chunk);
  }
}

/**
 * Files in one local directory. A write goes to a dot-prefixed temporary file in the same directory
 * and is renamed into place only once complete, so a partial file is never visible under its key.
 * The directory is 0700 and the files 0600, whatever the umask: they are people's attachments.
 */
export function createLocalFileStorage(dir: string): FileStorage {
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => (ready ??= ensurePrivateDir(dir).catch((error: unknown) => {
    ready = undefined;
    throw error;
  }));
  const fileOf = (key: string) => path.join(dir, checkKey(key));

  return {
    async write(key, stream, { maxBytes }) {
      const target = fileOf(key);
      await ensureDir();
      const temp = path.join(dir, `${TEMP_PREFIX}${key}-${randomBytes(6).toString('hex')}`);
      const limit = new ByteLimit(maxBytes);
      try {
        await pipeline(stream, limit, createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
        await rename(temp, target);
      } catch (error) {
        stream.destroy();
        await rm(temp, { force: true });
        throw error;
      }
      return { bytes: limit.bytes };
    },

    async read(key) {
      try {
        const handle = await open(fileOf(key), 'r');
        return handle.createReadStream();
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
