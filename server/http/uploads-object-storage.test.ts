// Uploads on an S3-compatible bucket (a real S3 server on loopback, testing/s3.ts): what the
// routes promise with a local folder holds with a bucket, and a bucket that does not answer
// gives a clear {msg} and a log line instead of a hang or a 500.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../lib/contract';
import { startS3, type ThrowawayS3 } from '../../testing/s3';
import { uploads } from '../db/schema';
import { createS3FileStorage, type S3FileStorage } from '../storage/s3-file-storage';
import { signIn, type SignedInUser } from '../test/helpers';
import { startObservedServer, type ObservedServer } from '../test/observed-server';
import { eventually, filesIn, pngBytes } from '../test/uploads';

let dir: string;
let s3: ThrowawayS3;
let storage: S3FileStorage;
let t: ObservedServer;
let alice: SignedInUser;
const spool = () => path.join(dir, 'spool');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-s3-uploads-'));
  s3 = await startS3(path.join(dir, 's3'));
  storage = await createS3FileStorage(s3.settings, { spoolDir: spool() });
  t = await startObservedServer({ storage });
  alice = await signIn(t.url, 'Alice');
});
afterAll(async () => {
  await t?.close();
  storage?.close();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

const upload = (body: Buffer, name: string, user = alice) =>
  fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: user.bearer, 'x-file-name': encodeURIComponent(name) },
    body: new Uint8Array(body),
  });
const rowsOf = (user: SignedInUser) => t.db.select().from(uploads).where(eq(uploads.ownerId, user.user.id));
const storageKeyOf = async (id: string) => (await t.db.select().from(uploads).where(eq(uploads.id, id)))[0]?.storageKey;
const unavailable = { msg: 'Attachments are unavailable right now. Try again in a moment.' };

describe('uploads on an S3-compatible bucket', () => {
  it('stores an image as one object and serves it back with the same headers as from disk', async () => {
    const png = pngBytes(320, 200);
    const response = await upload(png, 'plan.png');
    expect(response.status).toBe(201);
    const attachment = (await response.json()) as Attachment;
    expect(attachment).toMatchObject({ name: 'plan.png', mime_type: 'image/png', size: png.length, width: 320, height: 200 });
    expect(await s3.objectKeys()).toContain(await storageKeyOf(attachment.id));
    expect(await filesIn(spool())).toEqual([]);

    const served = await fetch(`${t.url}${attachment.url}`);
    expect(served.status).toBe(200);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=31536000, immutable',
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('serves other files as downloads', async () => {
    const attachment = (await (await upload(Buffer.from([0, 1, 2, 3]), 'data.bin')).json()) as Attachment;
    const served = await fetch(`${t.url}${attachment.url}`);
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
    expect([...new Uint8Array(await served.arrayBuffer())]).toEqual([0, 1, 2, 3]);
  });

  it('leaves no object, no open multipart upload, no spooled file and no row when the client aborts mid-upload', async () => {
    const bob = await signIn(t.url, 'Bob');
    const before = await s3.objectKeys();
    const req = request(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: bob.bearer, 'x-file-name': 'half.bin', 'content-length': 5_000_000 },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(256 * 1024, 7));
    await eventually(async () => (await filesIn(spool())).length > 0); // the upload is under way
    req.destroy();
    await eventually(async () => (await filesIn(spool())).length === 0);
    expect(await s3.objectKeys()).toEqual(before);
    expect(await s3.openMultipartUploads()).toEqual([]);
    expect(await rowsOf(bob)).toEqual([]);
  });

  it('answers 503 {msg} and logs a line while the bucket does not answer, then works again', async () => {
    const kept = (await (await upload(Buffer.from('kept'), 'kept.txt')).json()) as Attachment;
    const carol = await signIn(t.url, 'Carol');
    const logged = () => t.logs.filter((line) => line.msg === 'file storage unavailable');
    await s3.stop();
    try {
      const refused = await upload(Buffer.from('lost'), 'lost.txt', carol);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual(unavailable);
      expect(logged().at(-1)).toMatchObject({ level: 50, err: { message: expect.stringMatching(/PutObject failed: ECONNREFUSED/) } });
      expect(await rowsOf(carol)).toEqual([]);
      expect(await filesIn(spool())).toEqual([]);

      const unreadable = await fetch(`${t.url}${kept.url}`);
      expect(unreadable.status).toBe(503);
      expect(await unreadable.json()).toEqual(unavailable);
      expect(logged().at(-1)).toMatchObject({ level: 50, err: { message: expect.stringMatching(/GetObject failed: ECONNREFUSED/) } });
    } finally {
      await s3.start();
    }
    expect(await (await fetch(`${t.url}${kept.url}`)).text()).toBe('kept');
    expect((await upload(Buffer.from('back'), 'back.txt', carol)).status).toBe(201);
  });

  it('answers 404 for an upload whose object is gone', async () => {
    const attachment = (await (await upload(Buffer.from('soon gone'), 'gone.txt')).json()) as Attachment;
    await storage.remove((await storageKeyOf(attachment.id))!);
    const response = await fetch(`${t.url}${attachment.url}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ msg: 'Upload not found.' });
  });
});
