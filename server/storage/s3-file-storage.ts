import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { checkKey, lazyDirectory, StorageUnavailableError, tempFileIn, type FileStorage } from './file-storage';
import { writeToFile } from './write-to-file';

/** S3_* in server/config.ts; docs/DEPLOY.md, "Object storage". */
export interface ObjectStorageSettings {
  bucket: string;
  region: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  /** bucket in the path (http://host/bucket/key), as most S3-compatible stores want; else in the host name. */
  forcePathStyle: boolean;
  /** Both or neither; neither: the AWS SDK's default chain (AWS_* variables, an instance or task role, …). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

/** What a node learns from the bucket at start: usable, refused (a setting is wrong), or not answering. */
type BucketCheck = { ok: true } | { ok: false; refused: boolean; reason: string };

export interface S3FileStorage extends FileStorage {
  /** Writes, reads back and deletes a small object of its own. */
  check(): Promise<BucketCheck>;
  /** "bucket <name> at <endpoint>", for logs (never the credentials). */
  readonly description: string;
  /** Closes the SDK's idle connections. */
  close(): void;
}

// A store that does not accept the connection within this is taken as unreachable; a request
// that then sends or receives nothing for REQUEST_IDLE_MS is given up.
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_IDLE_MS = 30_000;
// Our own retries of a PUT (the SDK does not retry a streamed body), for 5xx and network errors.
const PUT_ATTEMPTS = 3;
const PUT_RETRY_DELAY_MS = 250;
// The SDK's own logger would print "non-retryable streaming request" warnings to the console; our
// routes log failures themselves, with the request they belong to.
const QUIET = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}
const statusOf = (error: unknown) => (error as SdkError | undefined)?.$metadata?.httpStatusCode;
const isMissing = (error: unknown) => (error as SdkError | undefined)?.name === 'NoSuchKey' || statusOf(error) === 404;
/** No answer at all, a server-side failure or throttling: worth another try, and not a wrong setting. */
const isTransient = (error: unknown) => {
  const status = statusOf(error);
  return status === undefined || status >= 500 || status === 408 || status === 429;
};

function describeError(error: unknown): string {
  const { name, code, message } = (error ?? {}) as SdkError;
  const status = statusOf(error);
  return [code ?? name ?? 'Error', status ? `(HTTP ${status})` : '', message && message !== name ? `: ${message}` : '']
    .filter(Boolean)
    .join(' ')
    .replace(' :', ':');
}

/**
 * Files as objects in an S3-compatible bucket, one object per key. A write is first spooled to a
 * file in `spoolDir` (byte limit and MD5 on the way), then sent in one PUT with its length and
 * Content-MD5: an upload the client abandons never reaches the bucket, the store checks it got
 * exactly the bytes we checked, and a failed PUT can be sent again (docs/DECISIONS.md, "Uploads").
 */
export async function createS3FileStorage(settings: ObjectStorageSettings, { spoolDir }: { spoolDir: string }): Promise<S3FileStorage> {
  // Loaded here, not at the top: a node without S3_BUCKET never carries the SDK (4.4 MB of heap;
  // docs/DECISIONS.md, "Optional backends load only when configured").
  const { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { bucket } = settings;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // The SDK's default adds CRC checksums that, for a streamed body, change the request's framing
    // (aws-chunked), which many S3-compatible stores refuse; Content-MD5 covers the bytes instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_IDLE_MS },
    logger: QUIET,
  });
  const ensureSpool = lazyDirectory(spoolDir);
  const description = `bucket ${bucket} at ${settings.endpoint ?? `AWS S3 (${settings.region})`}`;
  const unavailable = (operation: string, error: unknown) =>
    new StorageUnavailableError(`object storage (${description}): ${operation} failed: ${describeError(error)}`, { cause: error });

  async function put(key: string, file: string, bytes: number, md5: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const body = createReadStream(file);
      try {
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: bytes, ContentMD5: md5, ContentType: 'application/octet-stream' }),
        );
        return;
      } catch (error) {
        if (attempt >= PUT_ATTEMPTS || !isTransient(error)) throw unavailable('PutObject', error);
        await delay(PUT_RETRY_DELAY_MS * attempt);
      } finally {
        body.destroy();
      }
    }
  }

  const storage: S3FileStorage = {
    description,

    async write(key, stream, { maxBytes }) {
      checkKey(key);
      await ensureSpool();
      const spooled = tempFileIn(spoolDir, key);
      const { bytes, md5 } = await writeToFile(stream, spooled, { maxBytes, md5: true });
      try {
        await put(key, spooled, bytes, md5!);
      } catch (error) {
        // A PUT whose answer was lost may still have stored the object: the key is ours alone.
        await storage.remove(key).catch(() => undefined);
        throw error;
      } finally {
        await rm(spooled, { force: true });
      }
      return { bytes };
    },

    async read(key, range) {
      try {
        const { Body } = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: checkKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        // In Node the body is the response stream itself (an http.IncomingMessage).
        return (Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable('GetObject', error);
      }
    },

    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checkKey(key) }));
      } catch (error) {
        if (!isMissing(error)) throw unavailable('DeleteObject', error);
      }
    },

    async check() {
      // Its own key, outside the server's key alphabet ('.'), so it can never be an upload's.
      const probe = `.parley-check-${randomBytes(6).toString('hex')}`;
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: 'ok', ContentType: 'text/plain' }));
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: probe }));
        await Body?.transformToString();
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }));
        return { ok: true };
      } catch (error) {
        return { ok: false, refused: !isTransient(error), reason: unavailable('the start check', error).message };
      }
    },

    close() {
      client.destroy();
    },
  };
  return storage;
}
