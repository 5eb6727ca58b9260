// The build's static files served ahead of Next (static-assets.ts), over a real server: a folder
// standing in for `<distDir>/static`, and a Next stand-in that says what reached it.
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ParleyServer } from '../app';
import { openDatabase } from '../db/engine/open-database';
import { createStaticAssets } from './static-assets';

let server: ParleyServer;
let url: string;
let dir: string;
const script = `console.log(${JSON.stringify('parley '.repeat(2_000))});\n`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-static-'));
  const root = path.join(dir, 'build', 'static');
  await mkdir(path.join(root, 'chunks'), { recursive: true });
  await mkdir(path.join(root, 'media'), { recursive: true });
  await writeFile(path.join(root, 'chunks', 'app-1a2b.js'), script);
  await writeFile(path.join(root, 'media', 'font-3c4d.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]));
  await writeFile(path.join(root, 'chunks', 'notes.unknownext'), 'left to Next');
  // Beside the static folder, never served through it.
  await writeFile(path.join(dir, 'build', 'secret.js'), 'secret');
  const staticAssets = createStaticAssets(root, { production: true });
  await staticAssets.warm();
  server = createServer({
    config: { port: 0, host: '127.0.0.1', logLevel: 'silent' },
    db: await openDatabase({ pgliteDir: path.join(dir, 'db') }),
    verifier: { verifyIdToken: async () => ({ uid: 'x' }) as never, accountStatus: async () => 'active' },
    nextHandler: (req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`next:${req.url}`);
    },
    staticAssets,
  });
  url = `http://127.0.0.1:${(await server.listen()).port}`;
}, 60_000);
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body and drop content-encoding). */
function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the build’s static files', () => {
  it('answers a script compressed as the browser takes it, kept for good, with the security headers', async () => {
    const br = await get('/_next/static/chunks/app-1a2b.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.headers).toMatchObject({
      'content-type': 'application/javascript; charset=UTF-8',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'strict-transport-security': 'max-age=63072000; includeSubDomains',
    });
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 10);

    const gz = await get('/_next/static/chunks/app-1a2b.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get('/_next/static/chunks/app-1a2b.js?v=1');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);

    const head = await get('/_next/static/chunks/app-1a2b.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(script.length);
  });

  it('sends a font as it is stored', async () => {
    const font = await get('/_next/static/media/font-3c4d.woff2', { 'accept-encoding': 'br' });
    expect(font.headers).toMatchObject({ 'content-type': 'font/woff2', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(font.headers['content-encoding']).toBeUndefined();
    expect([...font.body]).toEqual([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]);
  });

  it('leaves to Next what is not one of its files: missing, of another kind, outside the folder, another method', async () => {
    for (const pathname of [
      '/_next/static/chunks/missing.js',
      '/_next/static/chunks/notes.unknownext',
      '/_next/static/../secret.js',
      '/_next/static/%2e%2e/secret.js',
      '/_next/static/chunks/%E0%A4%A.js',
      '/_next/static//chunks/app-1a2b.js',
    ]) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(404);
      expect(answer.body.toString(), pathname).toMatch(/^next:/);
    }
    const posted = await get('/_next/static/chunks/app-1a2b.js', {}, 'POST');
    expect(posted.body.toString()).toMatch(/^next:/);
  });

  it('serves a file written after the server started (a missing one is not remembered)', async () => {
    const later = path.join(dir, 'build', 'static', 'chunks', 'later-5e6f.js');
    expect((await get('/_next/static/chunks/later-5e6f.js')).status).toBe(404);
    await writeFile(later, 'later();');
    const answer = await get('/_next/static/chunks/later-5e6f.js');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('later();');
  });
});
