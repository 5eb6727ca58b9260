import type * as Fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { FileTooLargeError, writeToFile } from './write-to-file';

// The file's open may still be in flight when the write fails (a loaded machine's thread pool):
// here it can be made to take `openDelayMs`, through the write stream's own `fs` option.
const slow = vi.hoisted(() => ({ openDelayMs: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const open = (...args: unknown[]) => void setTimeout(() => (fs.open as (...a: unknown[]) => void)(...args), slow.openDelayMs);
  return {
    ...fs,
    createWriteStream: (file: string, options: Parameters<typeof fs.createWriteStream>[1] & object) =>
      fs.createWriteStream(file, { ...options, fs: { open, write: fs.write, writev: fs.writev, close: fs.close } }),
  };
});

const dir = await mkdtemp(path.join(tmpdir(), 'write-to-file-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  slow.openDelayMs = 0;
});

const present = async (name: string) => (await readdir(dir)).includes(name);

it('writes the bytes and their MD5', async () => {
  const file = path.join(dir, 'fine');
  expect(await writeToFile(Readable.from([Buffer.from('hello')]), file, { maxBytes: 5, md5: true })).toEqual({
    bytes: 5,
    md5: 'XUFAKrxLKna5cZ2REBfFkg==',
  });
  expect(await readFile(file, 'utf8')).toBe('hello');
});

it('leaves no file behind when the source fails while the file is still being opened', async () => {
  slow.openDelayMs = 100;
  const failing = new Readable({ read() {} });
  const written = writeToFile(failing, path.join(dir, 'early'), { maxBytes: 10 });
  failing.destroy(new Error('source gone'));
  await expect(written).rejects.toThrow('source gone');
  // Past the moment the open lands: a removal made before it would find the file created after.
  await sleep(300);
  expect(await present('early')).toBe(false);
});

it('leaves no file behind past the limit', async () => {
  await expect(writeToFile(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), path.join(dir, 'big'), { maxBytes: 10 })).rejects.toBeInstanceOf(
    FileTooLargeError,
  );
  expect(await present('big')).toBe(false);
});
