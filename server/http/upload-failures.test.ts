import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../db/schema';
import type { FileStorage } from '../storage/file-storage';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { signIn, type SignedInUser } from '../test/helpers';

/** What a write stream does when the disk fills up: the first `room` bytes go, then ENOSPC. */
function diskWithRoomFor(room: number): FileStorage {
  return {
    async write(_key, stream) {
      let written = 0;
      const disk = new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          if (written <= room) return done();
          done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
        },
      });
      await pipeline(stream, disk);
      return { bytes: written };
    },
    read: async () => null,
    remove: async () => {},
  };
}

let t: ConfiguredTestServer;
let alice: SignedInUser;
beforeAll(async () => {
  t = await startConfiguredServer({ captureLogs: true, storage: diskWithRoomFor(64 * 1024) });
  alice = await signIn(t.url, 'Alice');
});
afterAll(() => t.close());

describe('a full disk during an upload', () => {
  it('answers 507 with a plain msg, logs it as an error, and stores no row', async () => {
    const response = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: alice.bearer, 'x-file-name': 'holiday.jpg' },
      body: new Uint8Array(1024 * 1024),
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ msg: 'The server is out of storage space. Try again later.' });
    expect(await t.db.select().from(uploads).where(eq(uploads.ownerId, alice.user.id))).toEqual([]);

    const logged = t.logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { code?: string } });
    expect(logged.find((line) => line.msg === 'upload refused: storage is out of space')).toMatchObject({ level: 50, err: { code: 'ENOSPC' } });
  });
});
