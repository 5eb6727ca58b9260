// Range requests on GET /api/uploads/:id/:name, for both storages: video, audio and large files
// resume where they stopped, and players seek.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../lib/contract';
import { startS3, type ThrowawayS3 } from '../../testing/s3';
import { createS3FileStorage, type S3FileStorage } from '../storage/s3-file-storage';
import { signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';

let dir: string;
let s3: ThrowawayS3;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-range-'));
  s3 = await startS3(path.join(dir, 's3'));
});
afterAll(async () => {
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

// 3 MiB and a bit, every 4-byte word its own offset: any misplaced slice shows.
const file = Buffer.alloc(3 * 1024 * 1024 + 5);
for (let i = 0; i + 4 <= file.length; i += 4) file.writeUInt32BE(i, i);

describe.each(['local folder', 'S3-compatible bucket'])('GET /api/uploads/:id/:name with Range (%s)', (kind) => {
  let t: TestServer;
  let alice: SignedInUser;
  let storage: S3FileStorage | undefined;
  let attachment: Attachment;
  beforeAll(async () => {
    storage = kind === 'local folder' ? undefined : await createS3FileStorage(s3.settings, { spoolDir: path.join(dir, 'spool') });
    t = await startTestServer({ inMemory: true, storage });
    alice = await signIn(t.url, 'Alice');
    const response = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: alice.bearer, 'x-file-name': 'clip.mp4' },
      body: new Uint8Array(file),
    });
    expect(response.status).toBe(201);
    attachment = (await response.json()) as Attachment;
  });
  afterAll(async () => {
    await t.close();
    storage?.close();
  });

  const get = (headers: Record<string, string> = {}) => fetch(`${t.url}${attachment.url}`, { headers });
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

  it('serves the whole file with Accept-Ranges and a strong ETag', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toBe(`"${attachment.id}"`);
    expect(response.headers.get('content-length')).toBe(String(file.length));
    expect((await bytesOf(response)).equals(file)).toBe(true);
  });

  it('answers 206 with the slice for a-b, a- and -n, keeping the download headers', async () => {
    const cases: [string, number, number][] = [
      ['bytes=1000000-1099999', 1_000_000, 1_099_999],
      ['bytes=3000000-', 3_000_000, file.length - 1],
      ['bytes=-4096', file.length - 4096, file.length - 1],
      ['bytes=0-0', 0, 0],
      ['bytes=2000000-99999999', 2_000_000, file.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await get({ range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${file.length}`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect((await bytesOf(response)).equals(file.subarray(start, end + 1)), range).toBe(true);
    }
    const partial = await get({ range: 'bytes=10-19' });
    expect(Object.fromEntries(partial.headers)).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'accept-ranges': 'bytes',
    });
    await partial.arrayBuffer();
  });

  it('resumes a download cut short: what came, then the rest from where it stopped, is the file', async () => {
    const first = await bytesOf(await get({ range: 'bytes=0-1234566' }));
    const rest = await get({ range: `bytes=${first.length}-`, 'if-range': `"${attachment.id}"` });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([first, await bytesOf(rest)]).equals(file)).toBe(true);
  });

  it('answers 416 with Content-Range: bytes */size for a range past the end', async () => {
    for (const range of [`bytes=${file.length}-`, 'bytes=-0']) {
      const response = await get({ range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe(`bytes */${file.length}`);
      expect(await response.json()).toEqual({ msg: 'The requested range is not within the file.' });
    }
  });

  it('sends the whole file for If-Range that is not its ETag, and for ranges it does not serve', async () => {
    const cases: Record<string, string>[] = [{ range: 'bytes=0-9', 'if-range': '"another"' }, { range: 'bytes=0-1,5-6' }, { range: 'items=0-1' }];
    for (const headers of cases) {
      const response = await get(headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect((await bytesOf(response)).length).toBe(file.length);
    }
  });

  it('answers HEAD with the length of what a GET would send, without the body', async () => {
    const whole = await fetch(`${t.url}${attachment.url}`, { method: 'HEAD' });
    expect([whole.status, whole.headers.get('content-length'), whole.headers.get('accept-ranges')]).toEqual([200, String(file.length), 'bytes']);
    const part = await fetch(`${t.url}${attachment.url}`, { method: 'HEAD', headers: { range: 'bytes=5-9' } });
    expect([part.status, part.headers.get('content-length'), part.headers.get('content-range')]).toEqual([206, '5', `bytes 5-9/${file.length}`]);
  });
});
