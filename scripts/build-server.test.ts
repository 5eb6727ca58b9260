// The production bundle (`npm start`) loads the S3 SDK and the Redis packages only when S3_BUCKET
// or REDIS_URL asks for them: a static import would load them into every node's heap at start
// (docs/DECISIONS.md, "Optional backends load only when configured").
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const OPTIONAL = ['@aws-sdk/client-s3', 'ioredis', '@socket.io/redis-streams-adapter'];

let dir: string;
let bundle: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-bundle-'));
  const outfile = path.join(dir, 'main.js');
  await promisify(execFile)(process.execPath, ['scripts/build-server.mjs', '--outfile', outfile]);
  bundle = await readFile(outfile, 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the server bundle', () => {
  it.each(OPTIONAL)('imports %s only where it is configured, never at start', (name) => {
    const quoted = JSON.stringify(name);
    expect(bundle).toContain(`import(${quoted})`);
    expect(bundle).not.toMatch(new RegExp(`^import\\b.*from ${quoted.replace(/[/.]/g, '\\$&')};?$`, 'm'));
  });

  it('still imports what every node needs at start (control: the check reads static imports)', () => {
    expect(bundle).toMatch(/^import .* from "firebase-admin\/auth";$/m);
  });
});
