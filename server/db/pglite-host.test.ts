// PGlite's worker thread: a worker that dies takes the server with it, a closed one says nothing.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it, vi } from 'vitest';
import { startPgliteWorker } from './pglite-host';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

it('reports a worker that dies while open once, and a closed one never', async () => {
  const onCrash = vi.fn();
  const crashed = await startPgliteWorker({ dataDir: null, onCrash });
  await crashed.worker.terminate();
  await vi.waitFor(() => expect(onCrash).toHaveBeenCalledTimes(1));
  expect(onCrash.mock.calls[0]![0].message).toBe("PGlite's worker stopped: its thread exited with code 1");

  const closed = await startPgliteWorker({ dataDir: null, onCrash });
  await closed.close();
  await closed.close();
  expect(onCrash).toHaveBeenCalledTimes(1);
}, 120_000);

it('ends the process with one line on stderr by default (never a half-alive server)', async () => {
  const outcome = await run(process.execPath, ['--import', 'tsx', 'server/test/crash-pglite-worker.ts'], { cwd: REPO_ROOT }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  expect(outcome).toEqual({ code: 1, stderr: "PGlite's worker stopped: its thread exited with code 1; exiting.\n" });
}, 120_000);
