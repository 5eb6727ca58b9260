import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES, type Attachment, type UploadUsage } from '../../lib/contract';
import { cleanFileName } from '../../lib/contract/display-text';
import { formatFileSize } from '../../lib/i18n/format';
import type { Db } from '../db/engine/open-database';
import { completeUpload, releaseUpload, reserveUpload, uploadUsage, type Usage } from '../db/upload-quota';
import { deleteUnsentUpload, findServableUpload, toAttachment } from '../db/uploads';
import { StorageUnavailableError, type FileStorage } from '../storage/file-storage';
import { FileTooLargeError } from '../storage/write-to-file';
import { SNIFF_BYTES, sniff } from '../storage/sniff';
import { limitAddress } from './http-rate-limit';
import { authenticateActive } from './authenticate';
import { parseRange } from './byte-range';
import { HttpError } from './errors';

export interface UploadsRoutesDeps {
  db: Db;
  storage: FileStorage;
  /** Bytes of uploads a user may keep (finished and in progress); null: no quota. */
  uploadQuotaBytes: number | null;
}

const MAX_NAME_LENGTH = 255;
// The client's formatter, in English (these sentences are the API's): decimal units, the unit of
// the limit itself, so "50 MB" here and on screen are the same number of bytes.
const size = (bytes: number, options?: { roundUp?: boolean }) => formatFileSize(bytes, 'en', options);
const tooLarge = () => HttpError.msg(413, `The file is larger than ${size(MAX_UPLOAD_BYTES)}.`);
const UPLOAD_ID = /^[A-Za-z0-9_-]{24}$/;
const fieldError = (message: string) => new HttpError(400, { non_field_errors: [message] });
const notFound = () => HttpError.msg(404, 'Upload not found.');
/**
 * 413, like a file over the size limit: this file is what does not fit. The body says where the
 * user stands, in the figures the settings show; the file's size rounded up, as the client words
 * a file over the limit, so it never reads as fitting.
 */
const overQuota = (fileBytes: number, { usedBytes, quotaBytes }: Usage) =>
  HttpError.msg(
    413,
    `This file (${size(fileBytes, { roundUp: true })}) does not fit in your storage: ${size(usedBytes)} of ${size(quotaBytes ?? 0)} used.`,
  );

/** The storage failed (an object store away or refusing): logged with the request, a 503 for the client. */
function storageUnavailable(request: FastifyRequest, error: StorageUnavailableError): HttpError {
  request.log.error({ err: error }, 'file storage unavailable');
  return HttpError.msg(503, 'Attachments are unavailable right now. Try again in a moment.');
}

// The download budget's unit of size (config.ts, download).
const DOWNLOAD_POINT_BYTES = 1024 * 1024;

const outOfSpace = () => HttpError.msg(507, 'The server is out of storage space. Try again later.');

// The disk (or the account's quota on it) is full: the server's problem, not the upload's.
const isOutOfSpace = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException | null)?.code ?? '');

/** X-File-Name is encodeURIComponent(name): decoded, stripped of any path, checked. */
function parseFileName(header: string | string[] | undefined): string {
  if (typeof header !== 'string' || header === '') throw fieldError('x-file-name: Required.');
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    throw fieldError('x-file-name: Must be the encodeURIComponent of the file name.');
  }
  // Line and paragraph separators break a name's line as controls do.
  if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(name)) throw fieldError('x-file-name: Control characters are not allowed.');
  // Invisible characters out (lib/contract/display-text.ts): "\u202Egpj.exe" must not read "exe.jpg";
  // nor may "a∕b.pdf" look like a path.
  name = cleanFileName(name);
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).trim();
  if (!name || name === '.' || name === '..') throw fieldError('x-file-name: Required.');
  if (name.length > MAX_NAME_LENGTH) throw fieldError(`x-file-name: At most ${MAX_NAME_LENGTH} characters.`);
  return name;
}

function parseLength(header: string | undefined): number {
  if (header === undefined) throw fieldError('content-length: Required (chunked uploads are not accepted).');
  if (!/^\d{1,16}$/.test(header)) throw fieldError('content-length: Must be a whole number.');
  const length = Number(header);
  if (length === 0) throw fieldError('content-length: The file is empty.');
  return length;
}

/** Passes everything through, keeping a copy of the first `limit` bytes for sniffing. */
class HeadCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    done(null, chunk);
  }
  get head(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** RFC 6266/8187: filename* carries any name; filename is an ASCII fallback for old clients. */
function attachmentDisposition(name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function uploadsRoutes(app: FastifyInstance, { db, storage, uploadQuotaBytes }: UploadsRoutesDeps): void {
  // The body is the file itself, in any type: hand the handler the raw stream, never buffer or parse it.
  // Scoped to this plugin, so JSON stays the only body the rest of the API accepts.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  // Refused for its rate or the node's load before a byte of the body is read: like 413, the
  // connection closes instead of draining it.
  const config = { rateLimit: 'upload', closeOnRefusal: true } as const;
  app.post('/uploads', { bodyLimit: MAX_UPLOAD_BYTES, config }, async (request, reply): Promise<Attachment> => {
    const { user } = await authenticateActive(db, request);
    const name = parseFileName(request.headers['x-file-name']);
    const declared = parseLength(request.headers['content-length']);
    // Refused before a byte of the body is read; the connection closes instead of draining the rest.
    if (declared > MAX_UPLOAD_BYTES) {
      reply.header('connection', 'close');
      throw tooLarge();
    }
    // The declared length is held against the quota before the body is read (the parser reads no
    // more than it); concurrent uploads take turns on the hold (db/upload-quota.ts).
    const reservation = await reserveUpload(db, user.id, declared, uploadQuotaBytes);
    if ('refused' in reservation) {
      reply.header('connection', 'close');
      throw overQuota(declared, reservation.refused);
    }

    try {
      const key = randomBytes(18).toString('base64url');
      const capture = new HeadCapture(SNIFF_BYTES);
      // pipeline() passes a failure of the request (client abort) on to `capture`, and so to storage.
      const source: Readable = pipeline(request.raw, capture, () => {});
      let bytes: number;
      try {
        // The byte count is checked while streaming too: neither limit trusts the declared length.
        ({ bytes } = await storage.write(key, source, { maxBytes: Math.min(MAX_UPLOAD_BYTES, declared) }));
      } catch (error) {
        if (error instanceof FileTooLargeError) {
          reply.header('connection', 'close');
          throw tooLarge();
        }
        if (isOutOfSpace(error)) {
          // An operator must hear of it; the client may try again once there is room.
          request.log.error({ err: error }, 'upload refused: storage is out of space');
          reply.header('connection', 'close');
          throw outOfSpace();
        }
        // The client went away mid-upload: nothing was stored, and there is nobody left to answer.
        if (!request.raw.complete) throw HttpError.msg(400, 'The upload was interrupted.');
        if (error instanceof StorageUnavailableError) throw storageUnavailable(request, error);
        throw error;
      }

      try {
        const { mimeType, width, height } = sniff(capture.head, bytes <= SNIFF_BYTES);
        const row = await completeUpload(db, reservation.reserved, { ownerId: user.id, name, mimeType, size: bytes, width, height, storageKey: key });
        // The account was deleted while its upload was in flight: its session is gone too.
        if (!row) throw HttpError.msg(401, 'Invalid or expired session token.');
        return reply.code(201).send(toAttachment(row));
      } catch (error) {
        await storage.remove(key);
        throw error;
      }
    } catch (error) {
      await releaseUpload(db, reservation.reserved);
      throw error;
    }
  });

  // Where the caller stands against their quota (the settings menu shows it).
  app.get('/uploads/usage', async (request): Promise<UploadUsage> => {
    const { user } = await authenticateActive(db, request);
    const { usedBytes, quotaBytes } = await uploadUsage(db, user.id, uploadQuotaBytes);
    return { used_bytes: usedBytes, quota_bytes: quotaBytes };
  });

  // An upload taken off the composer before it was sent: gone from storage and from the quota at
  // once, rather than counting until the sweeper's day is up. One in a message (or the user's
  // photo) stays: unsending the message is what deletes that.
  app.delete<{ Params: { id: string } }>('/uploads/:id', async (request, reply) => {
    const { user } = await authenticateActive(db, request);
    // Ids are 18 random bytes in base64url: anything else names no upload (and never reaches SQL).
    if (!UPLOAD_ID.test(request.params.id)) throw notFound();
    const result = await deleteUnsentUpload(db, user.id, request.params.id);
    if ('refused' in result) {
      if (result.refused === 'missing') throw notFound();
      throw HttpError.msg(409, 'This file is in a message or is your photo: it is deleted with the message (unsend it), not on its own.');
    }
    // After the row's deletion committed (like the sweeper): a failure leaves a file no row points to, never a broken message.
    await storage.remove(result.deleted.storageKey).catch((error: unknown) => request.log.error({ err: error }, 'deleted upload: file not removed'));
    return reply.code(204).send();
  });

  // No bearer token: <img src> cannot send one. The random id in the URL is the capability (DECISIONS.md).
  // A deactivated owner's files are gone as their profile is: 404, like an unknown id.
  app.get<{ Params: { id: string; name: string } }>('/uploads/:id/:name', async (request, reply) => {
    const { id, name } = request.params;
    const row = await findServableUpload(db, id);
    if (!row || row.name !== name) throw notFound();
    // An id's bytes never change, so the id is a strong validator; If-Range with anything else
    // (an older copy's, or a date) gets the whole file, as RFC 9110 wants.
    const etag = `"${row.id}"`;
    const ifRange = request.headers['if-range'];
    const wanted = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, row.size) : { kind: 'all' as const };
    if (wanted.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${row.size}`);
      throw HttpError.msg(416, 'The requested range is not within the file.');
    }
    const range = wanted.kind === 'range' ? wanted.range : undefined;
    // No account to charge: the client's address pays one per file and one per MiB it is sent (HEAD: none).
    const sent = request.method === 'HEAD' ? 0 : range ? range.end - range.start + 1 : row.size;
    await limitAddress(request, 'download', 1 + Math.floor(sent / DOWNLOAD_POINT_BYTES));
    const isImage = row.mimeType.startsWith('image/');
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${row.size}`);
    reply
      .header('content-type', row.mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : row.mimeType)
      .header('content-length', String(range ? range.end - range.start + 1 : row.size))
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', isImage ? 'inline' : attachmentDisposition(row.name))
      .header('cache-control', 'private, max-age=31536000, immutable');
    // HEAD answers from the row alone: no need to open the file, or fetch the object, to discard
    // it. (Fastify's HEAD route keeps our Content-Length only for a stream: an empty one.)
    if (request.method === 'HEAD') return reply.send(Readable.from([]));
    // A local file is sent through reused buffers (storage/send-file.ts): the reply is ours from
    // its head on, so a failure after it can only cut the response short.
    if (storage.open) {
      const file = await storage.open(row.storageKey);
      if (!file) throw notFound();
      reply.hijack();
      try {
        await file.send(range ?? { start: 0, end: row.size - 1 }, reply.raw, reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
      } catch {
        // A client that went away mid-file is the usual reason, and nothing to log.
        reply.raw.destroy();
      } finally {
        await file.close();
      }
      return reply;
    }
    let stream: Readable | null;
    try {
      stream = await storage.read(row.storageKey, range);
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw storageUnavailable(request, error);
      throw error;
    }
    if (!stream) throw notFound();
    return reply.send(stream);
  });
}
