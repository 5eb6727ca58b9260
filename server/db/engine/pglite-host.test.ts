// PGlite's worker thread: a worker that dies takes the server with it, a closed one says nothing,
// and a commit it acknowledged is on disk.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it, vi } from 'vitest';
import { openDatabase } from './open-database';
import { startPgliteWorker } from './pglite-host';
import { rows } from './raw-rows';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

it('gives each client a fresh session, as a Postgres backend would: no prepared statement, setting or open transaction of the one before', async () => {
  const host = await startPgliteWorker({ dataDir: null, onCrash: () => {} });
  const connect = async () => {
    const client = new pg.Client({ host: host.socketDir, user: 'postgres', database: 'postgres' });
    await client.connect();
    return client;
  };
  try {
    const first = await connect();
    await first.query('prepare probe(int) as select $1::int as v');
    await first.query("set application_name = 'first'");
    await first.query('begin');
    await first.query('create table left_open (x int)');
    await first.end();

    const second = await connect();
    await second.query('prepare probe(int) as select $1::int + 1 as v');
    const { rows } = await second.query("select current_setting('application_name') as name, to_regclass('left_open') as t");
    expect(rows).toEqual([{ name: '', t: null }]);
    expect((await second.query('execute probe(1)')).rows).toEqual([{ v: 2 }]);
    await second.end();
  } finally {
    await host.close();
  }
}, 120_000);

it('names a round trip that held the database too long by its statements, never by their values', async () => {
  const onSlow = vi.fn();
  const host = await startPgliteWorker({ dataDir: null, onCrash: () => {}, onSlow, slowMs: 200 });
  const client = new pg.Client({ host: host.socketDir, user: 'postgres', database: 'postgres' });
  try {
    await client.connect();
    await client.query('select 1');
    expect(onSlow).not.toHaveBeenCalled();
    // A script as the batches send them: a literal with a semicolon and words in it.
    await client.query(`prepare probe(int) as select $1; begin; select 'secret; execute leaked words' as text, pg_sleep(0.3); execute probe(1); commit`);
    // The extended protocol (a parameter, a Parse message).
    await client.query('select $1::text, pg_sleep(0.3)', ['also secret']);
    expect(onSlow.mock.calls.map(([slow]) => slow.statements)).toEqual(['prepare probe; begin; select; execute probe; commit', 'select']);
    expect(onSlow.mock.calls.every(([slow]) => slow.ms >= 200)).toBe(true);
  } finally {
    await client.end();
    await host.close();
  }
}, 120_000);

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

it('keeps every commit it acknowledged through a kill -9 of the process', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-durability-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/commit-until-killed.ts', dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let printed = '';
    let acknowledged = 0;
    await new Promise<void>((resolve, reject) => {
      child.once('exit', () => reject(new Error(`exited before committing enough:\n${printed}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString('utf8');
        acknowledged = Number(printed.trimEnd().split('\n').at(-1));
        // Killed while it commits as fast as it can: the last commit was acknowledged a moment ago.
        if (acknowledged >= 50) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await exited;
    const { db, close } = await openDatabase({ dataDir: dir });
    try {
      const [row] = await rows<{ count: number; highest: number }>(db, sql`select count(*)::int as count, max(n) as highest from durability_probe`);
      // Every acknowledged commit survived; one more may have committed before its number was read.
      expect(row!.highest).toBeGreaterThanOrEqual(acknowledged);
      expect(row!.count).toBe(row!.highest);
    } finally {
      await close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
