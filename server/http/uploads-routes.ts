import { randomBytes } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, type Attachment } from '../../lib/contract';
import type { Db } from '../db/open-database';
import { createUpload, findUpload, toAttachment } from '../db/uploads';
import { enforceRateLimit } from '../security/http-rate-limit';
import type { RateLimiters } from '../security/rate-limit';
import { FileTooLargeError, type FileStorage } from '../storage/file-storage';
import { SNIFF_BYTES, sniff } from '../storage/sniff';
import { authenticateActive } from './authenticate';
import { HttpError } from './errors';

export interface UploadsRoutesDeps {
  db: Db;
  storage: FileStorage;
  limiters: Pick<RateLimiters, 'upload'>;
}

const MAX_NAME_LENGTH = 255;
// Decimal megabytes, the unit of the limit itself (lib/contract/constants.ts).
const tooLarge = () => HttpError.msg(413, `The file is larger than ${MAX_UPLOAD_BYTES / 1_000_000} MB.`);
const fieldError = (message: string) => new HttpError(400, { non_field_errors: [message] });
const notFound = () => HttpError.msg(404, 'Upload not found.');

/** X-File-Name is encodeURIComponent(name): decoded, stripped of any path, checked. */
function parseFileName(header: string | string[] | undefined): string {
  if (typeof header !== 'string' || header === '') throw fieldError('x-file-name: Required.');
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    throw fieldError('x-file-name: Must be the encodeURIComponent of the file name.');
  }
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).trim();
  if (!name || name === '.' || name === '..') throw fieldError('x-file-name: Required.');
  if (name.length > MAX_NAME_LENGTH) throw fieldError(`x-file-name: At most ${MAX_NAME_LENGTH} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fieldError('x-file-name: Control characters are not allowed.');
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

export function uploadsRoutes(app: FastifyInstance, { db, storage, limiters }: UploadsRoutesDeps): void {
  // The body is the file itself, in any type: hand the handler the raw stream, never buffer or parse it.
  // Scoped to this plugin, so JSON stays the only body the rest of the API accepts.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.post('/uploads', { bodyLimit: MAX_UPLOAD_BYTES }, async (request, reply): Promise<Attachment> => {
    const { user } = await authenticateActive(db, request);
    // Refused before a byte of the body is read: like 413, the connection closes instead of draining it.
    enforceRateLimit(limiters.upload, user.id, reply, { closeConnection: true });
    const name = parseFileName(request.headers['x-file-name']);
    const declared = parseLength(request.headers['content-length']);
    // Refused before a byte of the body is read; the connection closes instead of draining the rest.
    if (declared > MAX_UPLOAD_BYTES) {
      reply.header('connection', 'close');
      throw tooLarge();
    }

    const key = randomBytes(18).toString('base64url');
    const capture = new HeadCapture(SNIFF_BYTES);
    // pipeline() passes a failure of the request (client abort) on to `capture`, and so to storage.
    const source: Readable = pipeline(request.raw, capture, () => {});
    let bytes: number;
    try {
      // The byte count is checked while streaming too: the declared length is not trusted.
      ({ bytes } = await storage.write(key, source, { maxBytes: MAX_UPLOAD_BYTES }));
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        reply.header('connection', 'close');
        throw tooLarge();
      }
      // The client went away mid-upload: nothing was stored, and there is nobody left to answer.
      if (!request.raw.complete) throw HttpError.msg(400, 'The upload was interrupted.');
      throw error;
    }

    try {
      const { mimeType, width, height } = sniff(capture.head, bytes <= SNIFF_BYTES);
      const row = await createUpload(db, { ownerId: user.id, name, mimeType, size: bytes, width, height, storageKey: key });
      return reply.code(201).send(toAttachment(row));
    } catch (error) {
      await storage.remove(key);
      throw error;
    }
  });

  // No bearer token: <img src> cannot send one. The random id in the URL is the capability (DECISIONS.md).
  app.get<{ Params: { id: string; name: string } }>('/uploads/:id/:name', async (request, reply) => {
    const { id, name } = request.params;
    const row = await findUpload(db, id);
    if (!row || row.name !== name) throw notFound();
    const stream = await storage.read(row.storageKey);
    if (!stream) throw notFound();
    const isImage = row.mimeType.startsWith('image/');
    return reply
      .header('content-type', row.mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : row.mimeType)
      .header('content-length', String(row.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', isImage ? 'inline' : attachmentDisposition(row.name))
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(stream);
  });
}
