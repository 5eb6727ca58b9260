import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vapidKeyProblems } from './push-settings';
import { loadOrCreateVapidKeys, VAPID_KEYS_FILE } from './vapid-keys';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-vapid-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('development VAPID keys', () => {
  it('are made once into DATA_DIR, readable by the owner only, and the same on the next start', async () => {
    const first = await loadOrCreateVapidKeys(path.join(dir, 'data'));
    expect(vapidKeyProblems(first)).toEqual([]);
    const file = path.join(dir, 'data', VAPID_KEYS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'data'))).mode & 0o777).toBe(0o700);
    expect(await loadOrCreateVapidKeys(path.join(dir, 'data'))).toEqual(first);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
  });

  it('two starts at once share one pair', async () => {
    const [a, b] = await Promise.all([loadOrCreateVapidKeys(dir), loadOrCreateVapidKeys(dir)]);
    expect(a).toEqual(b);
  });

  it('refuse a damaged file, naming it, rather than replacing keys subscriptions depend on', async () => {
    await writeFile(path.join(dir, VAPID_KEYS_FILE), JSON.stringify({ publicKey: 'x', privateKey: 'y' }));
    await expect(loadOrCreateVapidKeys(dir)).rejects.toThrow(/vapid-keys\.json: VAPID_PUBLIC_KEY/);
  });
});
