import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthEmulator } from './auth-emulator.mjs';

// Something answering where the emulator would: another run's emulator, as far as a caller can tell.
let other: Server;
let host: string;
beforeAll(async () => {
  other = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

describe('startAuthEmulator with one already answering', () => {
  it('uses it by default (a developer’s npm run dev), and has nothing of its own to stop', async () => {
    await expect(startAuthEmulator({ host, config: 'unused.json' })).resolves.toBeNull();
  });

  it('refuses it when the run must own its emulator (CI), naming the address', async () => {
    await expect(startAuthEmulator({ host, config: 'unused.json', reuse: false })).rejects.toThrow(`already answering on ${host}`);
  });
});
