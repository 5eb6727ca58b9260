import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirPermissionError, ensurePrivateDir } from '../security/private-files';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';
import { openDatabase } from './open-database';
import { findUserById } from '../../testing/database';
import { upsertUserFromFirebase } from './users';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const HOLDER = path.join(REPO_ROOT, 'server/test/hold-data-dir.ts');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-datadir-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Holder {
  child: ChildProcess;
  /** The JSON line the holder printed once it held the folder, or failed to. */
  result: Promise<{ held?: true; error?: string; message?: string }>;
  exited: Promise<void>;
}

/** Another process opening the database (or taking only the lock) on `dir`; see hold-data-dir.ts. */
function holder(mode: 'database' | 'lock', dir: string, startAt?: number): Holder {
  const args = ['--import', 'tsx', HOLDER, mode, dir, ...(startAt ? [String(startAt)] : [])];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGKILL'); // our own child, by its handle
    await exited;
  });
  const result = new Promise<{ held?: true; error?: string; message?: string }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    void exited.then(() => reject(new Error(`holder ${child.pid} exited without a word`)));
  });
  return { child, result, exited };
}

/** The pid of a process that has just ended: nothing holds it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

async function writeClaim(dir: string, claim: Record<string, unknown>): Promise<void> {
  await mkdir(`${dir}.lock`, { recursive: true });
  const pid = claim.pid as number;
  await writeFile(path.join(`${dir}.lock`, `${pid}-stale.claim`), JSON.stringify({ host: hostname(), startedAt: 'then', ...claim }));
}

describe('one process per data folder', () => {
  it('refuses a second process on the same DATA_DIR, naming it, and takes over at once after a kill -9', { timeout: 120_000 }, async () => {
    const dataDir = await tempDir();
    const other = holder('database', dataDir);
    expect(await other.result).toEqual({ held: true });

    const refusal = openDatabase({ dataDir });
    await expect(refusal).rejects.toThrow(DataDirLockedError);
    await expect(refusal).rejects.toThrow(
      new RegExp(`^DATA_DIR is in use: .* is open in another Parley process \\(pid ${other.child.pid}, started [^)]+\\)\\.`),
    );

    other.child.kill('SIGKILL'); // no close(), no exit hook: its claim stays behind
    await other.exited;
    const database = await openDatabase({ dataDir });
    cleanups.push(() => database.close());
    const user = await upsertUserFromFirebase(database.db, { firebaseUid: 'u', username: null, email: null, avatar: null, socialType: 'google' });
    expect((await findUserById(database.db, user.id))?.firebaseUid).toBe('u');
  });

  it('refuses a second open in this process until the first one is closed', { timeout: 60_000 }, async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(new RegExp(`open in this process \\(pid ${process.pid}\\)`));
    await first.close();
    const second = await openDatabase({ dataDir });
    await second.close();
  });

  it('lets exactly one of several processes racing for a dead holder’s lock win', { timeout: 60_000 }, async () => {
    const dir = path.join(await tempDir(), 'pglite');
    await writeClaim(dir, { pid: await deadPid() });
    const startAt = Date.now() + 4_000; // time enough for all of them to load
    const racers = Array.from({ length: 4 }, () => holder('lock', dir, startAt));
    const results = await Promise.all(racers.map((racer) => racer.result));
    const winners = racers.filter((_racer, index) => results[index]?.held);
    expect(winners).toHaveLength(1);
    for (const result of results.filter((r) => !r.held)) {
      expect(result).toMatchObject({ error: 'DataDirLockedError', message: expect.stringContaining(`pid ${winners[0]!.child.pid}`) });
    }
  });

  it('races within one process too: one of several concurrent takers holds the lock', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => lockDataDir(dir)));
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(held).toHaveLength(1);
    await held[0]!.release();
    await (await lockDataDir(dir)).release();
  });

  it('takes over a claim whose pid now belongs to another process, or to this one', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    // The parent is alive, but it is not the process that wrote this (its start time differs).
    await writeClaim(dir, { pid: process.ppid, startTicks: '1' });
    // A previous process that had this process's pid (a container restarted).
    await writeClaim(dir, { pid: process.pid });
    const lock = await lockDataDir(dir);
    expect(await readdir(`${dir}.lock`)).toEqual([path.basename(lock.file)]);
    await lock.release();
  });

  it('never takes over a claim from another host, whose process it cannot see', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    await writeClaim(dir, { pid: 4242, host: 'elsewhere' });
    await expect(lockDataDir(dir)).rejects.toThrow(/another Parley process \(pid 4242 on host elsewhere.*If that process is gone, delete .*4242-stale\.claim/);
  });
});

/** Every folder and file under `dir` (dir included) with its permission bits. */
async function modes(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>([[dir, (await stat(dir)).mode & 0o777]]);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    found.set(file, (await stat(file)).mode & 0o777);
  }
  return found;
}

function openToOthers(found: Map<string, number>): string[] {
  return [...found].filter(([, mode]) => mode & 0o077).map(([file, mode]) => `${mode.toString(8)} ${file}`);
}

describe('data on disk is private', () => {
  it('creates DATA_DIR 0700 and every folder and file under it without group or other access', { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const database = await openDatabase({ dataDir });
    await upsertUserFromFirebase(database.db, { firebaseUid: 'u', username: 'secret', email: null, avatar: null, socialType: 'google' });
    const whileOpen = await modes(dataDir);
    await database.close();
    const afterClose = await modes(dataDir);

    expect(whileOpen.size).toBeGreaterThan(100); // PGlite's whole cluster is there
    expect(openToOthers(whileOpen)).toEqual([]);
    expect(openToOthers(afterClose)).toEqual([]);
    expect(whileOpen.get(dataDir)).toBe(0o700);
    expect(afterClose.get(path.join(dataDir, 'pglite', 'pg_wal'))).toBe(0o700);
    const walSegment = [...afterClose.keys()].find((file) => /pg_wal\/[0-9A-F]{24}$/.test(file));
    expect(walSegment && afterClose.get(walSegment)).toBe(0o600);
  });

  it('tightens an existing DATA_DIR left open to others (0755 folders, 0644 and 0666 files)', { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    await openDatabase({ dataDir }).then((database) => database.close());
    // As an older version left it: PGlite's own modes under a umask of 022.
    for (const file of (await modes(dataDir)).keys()) await chmod(file, (await stat(file)).isDirectory() ? 0o755 : 0o666);
    await writeFile(path.join(dataDir, 'notes.txt'), 'x');
    await chmod(path.join(dataDir, 'notes.txt'), 0o644);
    expect(openToOthers(await modes(dataDir)).length).toBeGreaterThan(100);

    const database = await openDatabase({ dataDir });
    const found = await modes(dataDir);
    await database.close();
    // DATA_DIR itself and the whole database; other files in DATA_DIR sit behind its 0700.
    expect(found.get(dataDir)).toBe(0o700);
    expect(openToOthers(found).filter((file) => !file.endsWith('notes.txt'))).toEqual([]);
  });

  it('refuses a folder it cannot make private, saying why and what to do', async () => {
    // Even root may not chmod /proc/1 (0555): the one folder anyone can rely on being unchangeable.
    const refusal = ensurePrivateDir('/proc/1');
    await expect(refusal).rejects.toThrow(DataDirPermissionError);
    await expect(refusal).rejects.toThrow(
      "/proc/1 is readable by other users (mode 555) and could not be made private (EPERM): run Parley as the folder's owner, or chmod -R go-rwx it.",
    );
  });
});
