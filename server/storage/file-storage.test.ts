import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/processes';
import { startS3, type ThrowawayS3 } from '../../testing/s3';
import { filesIn } from '../test/uploads';
import { createLocalFileStorage, STALE_TEMP_MS, StorageUnavailableError, type FileStorage } from './file-storage';
import { FileTooLargeError } from './write-to-file';
import { createS3FileStorage, type S3FileStorage } from './s3-file-storage';
import { sniff } from './sniff';

let dir: string;
let s3: ThrowawayS3;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-storage-'));
  s3 = await startS3(path.join(dir, 's3'));
});
afterAll(async () => {
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

const chunks = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)));

interface Subject {
  storage: FileStorage;
  /** Everything the storage holds: stored files or objects, and any temporary or spooled file or open multipart upload. */
  held(): Promise<string[]>;
}

// One contract, both implementations: what the upload routes (and the sweeper, and account
// deletion) rely on must hold whether files live on this node's disk or in a bucket.
const implementations: [string, () => Subject | Promise<Subject>][] = [
  [
    'local folder',
    () => {
      const uploads = path.join(dir, 'local');
      return { storage: createLocalFileStorage(uploads), held: () => filesIn(uploads) };
    },
  ],
  [
    'S3-compatible bucket',
    async () => {
      const spool = path.join(dir, 'spool');
      const storage = await createS3FileStorage(s3.settings, { spoolDir: spool });
      return {
        storage,
        held: async () => [...(await s3.objectKeys()), ...(await filesIn(spool)), ...(await s3.openMultipartUploads())],
      };
    },
  ],
];

describe.each(implementations)('file storage: %s', (_name, make) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await make();
  });
  afterAll(() => (subject.storage as Partial<S3FileStorage>).close?.());

  it('writes, reads back (whole or a byte range) and removes a file', async () => {
    const { storage, held } = subject;
    expect(await storage.write('abc_1-2', chunks('hello ', 'world'), { maxBytes: 11 })).toEqual({ bytes: 11 });
    expect(await held()).toEqual(['abc_1-2']);
    expect(await text((await storage.read('abc_1-2'))!)).toBe('hello world');
    expect(await text((await storage.read('abc_1-2', { start: 6, end: 10 }))!)).toBe('world');
    expect(await text((await storage.read('abc_1-2', { start: 4, end: 4 }))!)).toBe('o');
    await storage.remove('abc_1-2');
    expect(await storage.read('abc_1-2')).toBeNull();
    expect(await held()).toEqual([]);
    await storage.remove('abc_1-2'); // removing twice is fine
  });

  it('keeps large files whole', async () => {
    const { storage } = subject;
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
    await storage.write('big_whole', Readable.from([big.subarray(0, 1000), big.subarray(1000)]), { maxBytes: big.length });
    const back = Buffer.concat(await (await storage.read('big_whole'))!.toArray());
    expect(back.equals(big)).toBe(true);
    await storage.remove('big_whole');
  });

  it('stops at maxBytes while streaming, whatever was announced, and leaves nothing behind', async () => {
    const endless = new Readable({ read() { this.push(Buffer.alloc(1024)); } });
    await expect(subject.storage.write('big', endless, { maxBytes: 10_000 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(endless.destroyed).toBe(true);
    expect(await subject.held()).toEqual([]);
  });

  it('leaves nothing behind when the source fails midway (a client abort)', async () => {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(4096));
    setTimeout(() => failing.destroy(new Error('aborted')), 20);
    await expect(subject.storage.write('half', failing, { maxBytes: 1e6 })).rejects.toThrow('aborted');
    expect(await subject.held()).toEqual([]);
  });

  it('refuses keys that could leave its directory or bucket', async () => {
    await expect(subject.storage.write('../x', chunks('x'), { maxBytes: 10 })).rejects.toThrow(/invalid storage key/);
    await expect(subject.storage.read('a/b')).rejects.toThrow(/invalid storage key/);
    await expect(subject.storage.remove('.x')).rejects.toThrow(/invalid storage key/);
  });
});

describe('S3 file storage when the bucket is away or refuses', () => {
  const spool = () => path.join(dir, 'spool-away');

  it('checks at start: fine, refused (no such bucket, wrong secret) or not answering', async () => {
    const fine = await createS3FileStorage(s3.settings, { spoolDir: spool() });
    const missing = await createS3FileStorage({ ...s3.settings, bucket: 'no-such-bucket' }, { spoolDir: spool() });
    const wrongKey = await createS3FileStorage({ ...s3.settings, secretAccessKey: 'wrong' }, { spoolDir: spool() });
    const nobody = await createS3FileStorage({ ...s3.settings, endpoint: `http://127.0.0.1:${await freePort()}` }, { spoolDir: spool() });
    try {
      expect(await fine.check()).toEqual({ ok: true });
      expect(await s3.objectKeys()).toEqual([]); // its probe object is gone again
      expect(await missing.check()).toEqual({ ok: false, refused: true, reason: expect.stringMatching(/bucket no-such-bucket .*NoSuchBucket \(HTTP 404\)/) });
      expect(await wrongKey.check()).toEqual({ ok: false, refused: true, reason: expect.stringMatching(/SignatureDoesNotMatch \(HTTP 403\)/) });
      expect(await nobody.check()).toEqual({ ok: false, refused: false, reason: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      for (const storage of [fine, missing, wrongKey, nobody]) storage.close();
    }
  });

  it('fails writes, reads and removals with StorageUnavailableError, leaving no spooled file', async () => {
    const storage = await createS3FileStorage(s3.settings, { spoolDir: spool() });
    await storage.write('kept', chunks('still here'), { maxBytes: 100 });
    await s3.stop();
    try {
      await expect(storage.write('lost', chunks('never stored'), { maxBytes: 100 })).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.read('kept')).rejects.toThrow(/GetObject failed: ECONNREFUSED/);
      await expect(storage.remove('kept')).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await filesIn(spool())).toEqual([]);
    } finally {
      await s3.start();
    }
    expect(await s3.objectKeys()).toEqual(['kept']);
    expect(await text((await storage.read('kept'))!)).toBe('still here');
    await storage.remove('kept');
    storage.close();
  });
});

describe('local file storage on disk', () => {
  it('keeps the folder 0700 (tightening an existing 0755 one) and writes files 0600, whatever the umask', async () => {
    const loose = path.join(dir, 'loose');
    await mkdir(loose, { mode: 0o755 });
    const previous = process.umask(0o000);
    try {
      const looseStorage = createLocalFileStorage(loose);
      await looseStorage.write('photo', chunks('private'), { maxBytes: 100 });
      expect((await stat(loose)).mode & 0o777).toBe(0o700);
      expect((await stat(path.join(loose, 'photo'))).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('removes, on first use, the temporary files a crashed write left an hour ago or more, and nothing else', async () => {
    const crashed = path.join(dir, 'crashed');
    await mkdir(crashed, { mode: 0o700 });
    const old = new Date(Date.now() - STALE_TEMP_MS - 60_000);
    await writeFile(path.join(crashed, '.tmp-photo-abc123'), 'half a photo');
    await utimes(path.join(crashed, '.tmp-photo-abc123'), old, old);
    await writeFile(path.join(crashed, '.tmp-other-def456'), 'being written now');
    await writeFile(path.join(crashed, 'kept'), 'a stored file');
    await utimes(path.join(crashed, 'kept'), old, old);
    const storage = createLocalFileStorage(crashed);
    await storage.write('next', chunks('new'), { maxBytes: 100 });
    expect((await readdir(crashed)).sort()).toEqual(['.tmp-other-def456', 'kept', 'next']);
  });
});

const bytes = (...parts: (number[] | string | Buffer)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const u16be = (n: number) => [n >> 8, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >> 8];
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, n >> 16];

describe('sniff', () => {
  it('reads JPEG dimensions from the frame header after other segments', () => {
    const app0 = bytes([0xff, 0xe0], u16be(16), 'JFIF\0', Array(9).fill(0));
    const sof = bytes([0xff, 0xc2], u16be(17), [8], u16be(300), u16be(1200), Array(10).fill(0));
    expect(sniff(bytes([0xff, 0xd8], app0, sof), false)).toEqual({ mimeType: 'image/jpeg', width: 1200, height: 300 });
    expect(sniff(bytes([0xff, 0xd8], app0), false)).toEqual({ mimeType: 'image/jpeg', width: null, height: null });
  });

  it('reads GIF and WebP (VP8X, VP8L, VP8) dimensions', () => {
    expect(sniff(bytes('GIF89a', u16le(20), u16le(10), [0, 0, 0]), true)).toMatchObject({ mimeType: 'image/gif', width: 20, height: 10 });
    const riff = (chunk: Buffer) => bytes('RIFF', [0, 0, 0, 0], 'WEBP', chunk);
    const vp8x = bytes('VP8X', [10, 0, 0, 0], [0, 0, 0, 0], u24le(4095), u24le(2047));
    expect(sniff(riff(vp8x), false)).toMatchObject({ mimeType: 'image/webp', width: 4096, height: 2048 });
    const bits = (99 & 0x3fff) | ((49 & 0x3fff) << 14); // 100 × 50
    const vp8l = bytes('VP8L', [0, 0, 0, 0], [0x2f], [bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24], [0]);
    expect(sniff(riff(vp8l), false)).toMatchObject({ width: 100, height: 50 });
    const vp8 = bytes('VP8 ', [0, 0, 0, 0], [0, 0, 0], [0x9d, 0x01, 0x2a], u16le(640), u16le(360));
    expect(sniff(riff(vp8), false)).toMatchObject({ width: 640, height: 360 });
  });

  it('tells UTF-8 text from binary, even when the head ends inside a character', () => {
    expect(sniff(Buffer.from('naïve café\r\n\tok'), true).mimeType).toBe('text/plain');
    expect(sniff(Buffer.from('ab€').subarray(0, 4), false).mimeType).toBe('text/plain');
    expect(sniff(Buffer.from('ab€').subarray(0, 4), true).mimeType).toBe('application/octet-stream');
    expect(sniff(Buffer.from([0x41, 0x00, 0x42]), true).mimeType).toBe('application/octet-stream');
    expect(sniff(bytes('<svg xmlns="http://www.w3.org/2000/svg">'), true).mimeType).toBe('text/plain');
  });
});
