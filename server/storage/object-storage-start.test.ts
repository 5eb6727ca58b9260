// What a node does at start with S3_BUCKET set (server/main.ts): a bucket that refuses stops the
// start with a message naming why; one that does not answer lets the node start, with a warning.
// The real entry point in a child process (tsx), against a real S3 server on loopback.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesIn } from '../test/uploads';
import { freePort, productionServerEnv, REPO_ROOT, spawnOwned } from '../../testing/processes';
import { startS3, type ThrowawayS3 } from '../../testing/s3';
import { waitUntil } from '../../testing/wait';

const START_TIMEOUT_MS = 60_000;
const started: ChildProcess[] = [];

let dir: string;
let s3: ThrowawayS3;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-s3-start-'));
  s3 = await startS3(path.join(dir, 's3'));
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

/** server/main.ts as `npm start` runs it (production, API only), with these S3_* settings. */
async function startNode(dataDir: string, s3Env: Record<string, string>) {
  let output = '';
  const port = await freePort();
  const env = { ...productionServerEnv({ port, dataDir, projectId: 'parley-s3-start' }), LOG_LEVEL: 'info', ...s3Env };
  // One process (tsx as a loader, not its wrapper), so stopping it by its handle stops the server.
  const { child, exited } = spawnOwned(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, exited, output: () => output };
}

describe('a node starting with S3_BUCKET', () => {
  it('refuses to start when the bucket refuses, naming why, before opening anything else', async () => {
    const dataDir = path.join(dir, 'refused');
    const node = await startNode(dataDir, { ...s3.env, S3_BUCKET: 'no-such-bucket' });
    await node.exited;
    expect(node.child.exitCode).toBe(1);
    expect(node.output()).toContain(
      `Parley failed to start: object storage (bucket no-such-bucket at ${s3.endpoint}): the start check failed: NoSuchBucket (HTTP 404)`,
    );
    expect(node.output()).toContain('Check S3_BUCKET, S3_ENDPOINT, S3_REGION and the credentials');
    expect(node.output()).not.toMatch(/\n\s+at /); // a setting to fix, not a stack trace
    expect(await filesIn(dataDir)).toEqual([]); // no database opened
  });

  it('starts when the bucket does not answer, logging a warning, and stops cleanly', async () => {
    const node = await startNode(path.join(dir, 'away'), { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` });
    try {
      await waitUntil(() => node.output().includes('Parley ready on'), { timeoutMs: START_TIMEOUT_MS, what: 'the node to start', detail: node.output });
      const warning = node
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
        .find((line) => line.msg.startsWith('object storage unreachable at start'));
      expect(warning).toMatchObject({ level: 40, reason: expect.stringMatching(/the start check failed: ECONNREFUSED/) });
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
    expect(node.child.exitCode).toBe(0);
  }, START_TIMEOUT_MS + 20_000);
});
