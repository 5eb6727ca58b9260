import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirPermissionError, ensurePrivateDir } from '../../security/private-files';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';
import { openDatabase } from './open-database';
import { findUserById } from '../../../testing/database';
import { upsertUserFromFirebase } from '../users';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
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
function holder(mode: 'database' | 'lock', dir: string, startAt?: number, ownPidNamespace = false): Holder {
  const args = ['--import', 'tsx', HOLDER, mode, dir, ...(startAt ? [String(startAt)] : [])];
  // unshare runs it as pid 1 of a new PID namespace (its own /proc), on the same file system;
  // --kill-child ends it with unshare, so our handle's SIGKILL reaches it.
  const child = ownPidNamespace
    ? spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, ...args], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
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

/** Whether a second server can be started in its own PID namespace here, or why not. */
function pidNamespaces(): { ok: true } | { ok: false; reason: string } {
  if (process.platform !== 'linux') return { ok: false, reason: `PID namespaces are Linux's (this is ${process.platform})` };
  const trial = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { encoding: 'utf8' });
  if (trial.error) return { ok: false, reason: `unshare(1) from util-linux could not run (${trial.error.message})` };
  if (trial.status !== 0) return { ok: false, reason: `unshare --pid needs root or user namespaces: ${trial.stderr.trim()}` };
  return { ok: true };
}
const namespaces = pidNamespaces();
if (!namespaces.ok) console.warn(`data-dir.test.ts: the two-namespace test is not run: ${namespaces.reason}.`);

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

    other.child.kill('SIGKILL'); // no close(), no exit hook: the kernel lets its lock go
    await other.exited;
    const database = await openDatabase({ dataDir });
    cleanups.push(() => database.close());
    const user = await upsertUserFromFirebase(database.db, { firebaseUid: 'u', username: null, email: null, avatar: null, socialType: 'google' });
    expect((await findUserById(database.db, user.id))?.firebaseUid).toBe('u');
  });

  // Two containers sharing a volume: the same hostname, pids that mean nothing to each other.
  it.skipIf(!namespaces.ok)('refuses a second server in another PID namespace, either way round', { timeout: 120_000 }, async () => {
    const dataDir = await tempDir();
    const inNamespace = holder('database', dataDir, undefined, true);
    expect(await inNamespace.result).toEqual({ held: true });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/^DATA_DIR is in use: .* is open in another Parley process \(pid 1, started/);
    inNamespace.child.stdin!.end(); // it closes and exits, then unshare does
    await inNamespace.exited;

    const database = await openDatabase({ dataDir });
    const refused = holder('database', dataDir, undefined, true);
    expect(await refused.result).toMatchObject({ error: 'DataDirLockedError', message: expect.stringContaining(`(pid ${process.pid}, started`) });
    await database.close();
  });

  it('refuses a second open in this process until the first one is closed', { timeout: 120_000 }, async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(new RegExp(`open in this process \\(pid ${process.pid}\\)`));
    await first.close();
    const second = await openDatabase({ dataDir });
    await second.close();
  });

  it('lets exactly one of several processes racing for the lock win', { timeout: 60_000 }, async () => {
    const dir = path.join(await tempDir(), 'pglite');
    const startAt = Date.now() + 4_000; // time enough for all of them to load
    const racers = Array.from({ length: 4 }, () => holder('lock', dir, startAt));
    const results = await Promise.all(racers.map((racer) => racer.result));
    expect(results.filter((result) => result.held)).toHaveLength(1);
    for (const result of results.filter((r) => !r.held)) expect(result).toMatchObject({ error: 'DataDirLockedError' });
  });

  it('races within one process too: one of several concurrent takers holds the lock', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => lockDataDir(dir)));
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(held).toHaveLength(1);
    await held[0]!.release();
    await (await lockDataDir(dir)).release();
  });

  it('goes by the kernel lock alone: a lock file naming a live process, or an earlier version’s claims, hold nothing', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    // Written by a holder that is gone; its pid now belongs to a live process (our parent).
    await writeFile(`${dir}.flock`, JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: 'then' }));
    await mkdir(`${dir}.lock`, { recursive: true });
    await writeFile(path.join(`${dir}.lock`, `${process.ppid}-old.claim`), JSON.stringify({ pid: process.ppid, host: hostname() }));
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lock.file, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(stat(`${dir}.lock`)).rejects.toThrow(/ENOENT/);
    await lock.release();
    await expect(stat(lock.file)).resolves.toBeTruthy(); // kept: see data-dir-lock.ts
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
