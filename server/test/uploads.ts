import { request as httpRequest } from 'node:http';
import { readdir } from 'node:fs/promises';

/** A tiny but well-formed-looking PNG header of the given size (sniffing reads only IHDR). */
export function pngBytes(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from('not really compressed pixels')),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An upload over a raw http.request, so a test controls Content-Length and the bytes on the wire.
 * Sends `chunks`, then ends unless `end` is false (the response may come before the body is done).
 */
export function rawUpload(
  base: string,
  headers: Record<string, string | number>,
  chunks: Buffer[],
  { end = true }: { end?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api/uploads`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    // The server may close the connection after refusing: a write error then is expected.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

/** Files in a directory (none if it does not exist yet). */
export async function filesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Polls `check` until it returns true, or fails after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * An upload whose body is sent in two steps: the headers and `head` now, the rest on `finish`
 * (or the connection cut on `abort`). `response` settles when the server answers (which may be
 * before the body is done); it rejects once aborted.
 */
export function openUpload(base: string, headers: Record<string, string | number>, head: Buffer) {
  let req: ReturnType<typeof httpRequest> | undefined;
  const response = new Promise<RawResponse>((resolve, reject) => {
    const started = httpRequest(`${base}/api/uploads`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        started.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    started.on('error', reject);
    started.write(head);
    req = started;
  });
  return { response, finish: (rest: Buffer) => void req?.end(rest), abort: () => void req?.destroy() };
}
