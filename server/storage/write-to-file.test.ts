import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { FileTooLargeError, writeToFile } from './write-to-file';

const dir = await mkdtemp(path.join(tmpdir(), 'write-to-file-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A few turns of the event loop: long enough for a file open still in flight to land. */
async function settle() {
  for (let turn = 0; turn < 20; turn++) await nextTurn();
}

it('writes the bytes and their MD5', async () => {
  const file = path.join(dir, 'fine');
  expect(await writeToFile(Readable.from([Buffer.from('hello')]), file, { maxBytes: 5, md5: true })).toEqual({
    bytes: 5,
    md5: 'XUFAKrxLKna5cZ2REBfFkg==',
  });
  expect(await readFile(file, 'utf8')).toBe('hello');
});

it('leaves no file behind when the source fails at once', async () => {
  const failing = new Readable({ read() {} });
  const written = writeToFile(failing, path.join(dir, 'early'), { maxBytes: 10 });
  failing.destroy(new Error('source gone'));
  await expect(written).rejects.toThrow('source gone');
  await settle();
  expect((await readdir(dir)).filter((name) => name === 'early')).toEqual([]);
});

it('leaves no file behind past the limit', async () => {
  await expect(writeToFile(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), path.join(dir, 'big'), { maxBytes: 10 })).rejects.toBeInstanceOf(FileTooLargeError);
  await settle();
  expect((await readdir(dir)).filter((name) => name === 'big')).toEqual([]);
});
