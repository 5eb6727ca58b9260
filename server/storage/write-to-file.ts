import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE_MODE } from '../security/private-files';

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
  }
}

/** Counts bytes on the way through (and hashes them if asked); fails as soon as there are more than maxBytes. */
class ByteLimit extends Transform {
  bytes = 0;
  constructor(
    private readonly maxBytes: number,
    readonly hash: Hash | null,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new FileTooLargeError(this.maxBytes));
    this.hash?.update(chunk);
    done(null, chunk);
  }
}

/**
 * Streams `stream` into a new private `file` (0600; never an existing one), stopping at maxBytes. On any error,
 * abort or overrun the file is deleted, the source destroyed and the promise rejects. With `md5`,
 * also returns the MD5 of the bytes (base64, as S3's Content-MD5 wants it).
 */
export async function writeToFile(
  stream: Readable,
  file: string,
  { maxBytes, md5 = false }: { maxBytes: number; md5?: boolean },
): Promise<{ bytes: number; md5: string | null }> {
  const limit = new ByteLimit(maxBytes, md5 ? createHash('md5') : null);
  const out = createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  try {
    await pipeline(stream, limit, out);
  } catch (error) {
    stream.destroy();
    // A source that fails at once rejects the pipeline before the file is even opened; the
    // stream then opens it and closes it. Removed before that, it would be left behind.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(file, { force: true });
    throw error;
  }
  return { bytes: limit.bytes, md5: limit.hash?.digest('base64') ?? null };
}
