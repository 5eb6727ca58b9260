import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ByteRange } from './file-storage';
import { sendFile, spareBuffers } from './send-file';

let dir: string;
let server: Server;
let url: string;
const bytes = randomBytes(300_000);
const file = () => path.join(dir, 'file');
/** What the next request is answered with, and how its send ended. */
let next: { range: ByteRange; file?: string; ended?: Promise<unknown> };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'send-file-'));
  await writeFile(file(), bytes);
  server = createServer((_request, response: ServerResponse) => {
    const { range } = next;
    next.ended = (async () => {
      const handle = await open(next.file ?? file(), 'r');
      try {
        await sendFile(handle, range.start, range.end, response, 206, { 'content-length': String(range.end - range.start + 1) });
      } catch (error) {
        response.destroy();
        throw error;
      } finally {
        await handle.close();
      }
    })();
    next.ended.catch(() => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('sendFile', () => {
  it('sends a range across several pieces byte for byte, and gives its buffer back for the next download', async () => {
    next = { range: { start: 1_000, end: 250_000 } };
    const response = await fetch(url);
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(1_000, 250_001))).toBe(true);
    await next.ended;
    const stock = spareBuffers();
    expect(stock).toBeGreaterThan(0);
    // The next download takes that buffer and gives it back: the stock neither shrinks nor grows.
    next = { range: { start: 0, end: bytes.length - 1 } };
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes)).toBe(true);
    await next.ended;
    expect(spareBuffers()).toBe(stock);
  });

  it('sends one byte, and the last piece of a file that is not a whole number of pieces', async () => {
    next = { range: { start: 7, end: 7 } };
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(bytes.subarray(7, 8));
    next = { range: { start: 65_536 * 4, end: bytes.length - 1 } };
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes.subarray(65_536 * 4))).toBe(true);
  });

  it('fails when the file is shorter than its range, instead of waiting for bytes that never come', async () => {
    next = { range: { start: 0, end: bytes.length + 10 } };
    await expect(fetch(url).then((response) => response.arrayBuffer())).rejects.toThrow();
    await expect(next.ended).rejects.toThrow(/shorter than its range/);
  });

  it('stops when the client goes away mid-file, and keeps the buffer out of the stock (the socket may still hold it)', async () => {
    // A download that finishes leaves a buffer in the stock for this one to take.
    next = { range: { start: 0, end: 9 } };
    await (await fetch(url)).arrayBuffer();
    await next.ended;
    const big = path.join(dir, 'big');
    await writeFile(big, randomBytes(32 * 1024 * 1024));
    next = { range: { start: 0, end: 32 * 1024 * 1024 - 1 }, file: big };
    const stock = spareBuffers();
    expect(stock).toBeGreaterThan(0);
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    // The first bytes arrive, then the client hangs up without reading the rest.
    await new Promise((resolve) => socket.once('data', resolve));
    socket.destroy();
    await expect(next.ended).rejects.toThrow();
    expect(spareBuffers()).toBe(stock - 1);
  });
});
