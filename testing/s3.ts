// A throwaway S3-compatible server (the storage tests, the cluster test): @20minutes/s3rver, a
// maintained fork of s3rver, in this process, on 127.0.0.1 and a free port, its objects in a
// temporary directory. It can be stopped and started again on the same port (the "bucket
// unreachable" cases). Checks of what it holds read its own store, since it does not sign
// bucket-level requests (ListObjects) the way the current AWS SDK does.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { ObjectStorageSettings } from '../server/storage/s3-file-storage';
import { freePort } from './processes';

const TEST_BUCKET = 'parley-test';
// s3rver's one built-in account.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface ThrowawayS3 {
  endpoint: string;
  /** What the server takes as its object storage settings. */
  settings: ObjectStorageSettings;
  /** The same as S3_* variables, for a server process. */
  env: Record<string, string>;
  /** Keys of the objects in the bucket, sorted. */
  objectKeys(): Promise<string[]>;
  /** Multipart uploads started and neither completed nor aborted. */
  openMultipartUploads(): Promise<string[]>;
  /** Starts it again on the same port after stop(). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(dir: string): Promise<ThrowawayS3> {
  const port = await freePort();
  let server: S3rver | undefined;
  const endpoint = `http://127.0.0.1:${port}`;

  async function start(): Promise<void> {
    if (server) throw new Error('s3rver already running');
    const started = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, configureBuckets: [{ name: TEST_BUCKET }] });
    await started.run();
    server = started;
  }
  // A store that is not running still holds its files: read it without a server.
  const store = () => server?.store ?? new S3rver({ directory: dir, silent: true }).store;

  await start();
  return {
    endpoint,
    settings: { bucket: TEST_BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, ...CREDENTIALS },
    env: {
      S3_BUCKET: TEST_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    objectKeys: async () => (await store().listObjects(TEST_BUCKET, { maxKeys: 10_000 })).objects.map((object) => object.key).sort(),
    openMultipartUploads: async () => {
      try {
        return await readdir(path.join(dir, TEST_BUCKET, '._S3rver_uploads'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    start,
    stop: async () => {
      const running = server;
      server = undefined;
      await running?.close();
    },
  };
}
