// PGlite admits one process per data folder: a second one would hand out the same ids and
// overwrite the first one's writes. Every opener takes this lock first (open-database.ts).
//
// Node has no flock(), so the lock is a folder of claims beside the data (`<dir>.lock/`): each
// opener writes a claim file of its own (atomically: written aside, then renamed in), then lists
// the folder. It holds the lock when no other claim belongs to a live process; otherwise it
// withdraws its claim. Two openers can never both hold it: whichever lists second sees the other's
// claim. Two racing ones may both withdraw, so a few rounds with a random pause settle it. A
// claim of a dead process (kill -9, a crash) is deleted by whoever finds it; names are unique per
// opener, so deleting one can never remove a live claim.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../security/private-files';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  /** The claim file; deleted by release(). */
  readonly file: string;
  release(): Promise<void>;
}

interface Claim {
  pid: number;
  host: string;
  /** Linux: the kernel's boot id and the process's start time, to tell a reused pid from its first owner. */
  bootId: string | null;
  startTicks: string | null;
  startedAt: string;
}

const ROUNDS = 5;
const CLAIM_SUFFIX = '.claim';
// Claims this process holds (several databases, or a second open of the same one, in one process).
const heldHere = new Set<string>();

function readProc(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** /proc/<pid>/stat: the state and start time fields (after the parenthesised command name). */
function procStat(pid: number): { state: string; startTicks: string } | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] && fields[19] ? { state: fields[0], startTicks: fields[19] } : null;
}

const bootId = () => readProc('/proc/sys/kernel/random/boot_id')?.trim() || null;

function ownClaim(): Claim {
  return {
    pid: process.pid,
    host: hostname(),
    bootId: bootId(),
    startTicks: procStat(process.pid)?.startTicks ?? null,
    startedAt: new Date().toISOString(),
  };
}

/** False only when the claim's process is surely gone; another host's claim cannot be checked. */
function isLive(claim: Claim, file: string): boolean {
  if (claim.host !== hostname()) return true;
  if (claim.bootId && claim.bootId !== bootId()) return false; // written before a reboot
  // Our own pid: another open in this process, or a previous process that had our pid (containers
  // restart with the same small pids).
  if (claim.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(claim.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists, under another user.
  }
  const stat = procStat(claim.pid);
  if (stat && (stat.state === 'Z' || stat.state === 'X')) return false; // killed, not yet reaped
  if (stat && claim.startTicks && stat.startTicks !== claim.startTicks) return false; // pid reused
  return true;
}

function parseClaim(text: string): Claim | null {
  try {
    const claim = JSON.parse(text) as Partial<Claim>;
    return typeof claim.pid === 'number' && typeof claim.host === 'string' ? (claim as Claim) : null;
  } catch {
    return null;
  }
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** The live claims in `lockDir` other than `mine`; dead ones are deleted on the way. */
async function otherLiveClaims(lockDir: string, mine: string): Promise<{ file: string; claim: Claim }[]> {
  const live: { file: string; claim: Claim }[] = [];
  for (const name of await readdir(lockDir)) {
    const file = path.join(lockDir, name);
    if (file === mine) continue;
    if (!name.endsWith(CLAIM_SUFFIX)) {
      // A claim still being written is named .<pid>-…; left behind only by a process that died writing it.
      const writerPid = Number(/^\.(\d+)-/.exec(name)?.[1]);
      if (writerPid && writerPid !== process.pid && !isLive({ ...ownClaim(), pid: writerPid, startTicks: null }, file)) {
        await removeQuietly(file);
      }
      continue;
    }
    const claim = parseClaim(await readFile(file, 'utf8').catch(() => ''));
    // Renamed in whole, so an unreadable claim is debris of a disk fault, not one being written.
    if (claim && isLive(claim, file)) live.push({ file, claim });
    else await removeQuietly(file);
  }
  return live;
}

function lockedError(dataDir: string, holder: Claim, file: string): DataDirLockedError {
  const who =
    holder.pid === process.pid && holder.host === hostname()
      ? `this process (pid ${holder.pid})`
      : `another Parley process (pid ${holder.pid}${holder.host === hostname() ? '' : ` on host ${holder.host}`}, started ${holder.startedAt})`;
  const otherHost = holder.host === hostname() ? '' : ` If that process is gone, delete ${file}.`;
  return new DataDirLockedError(
    `DATA_DIR is in use: ${dataDir} is open in ${who}. PGlite admits one process per data folder: stop that ` +
      `process first, or give this one its own DATA_DIR (several nodes need DATABASE_URL).${otherHost}`,
  );
}

/**
 * Takes the exclusive lock on the data folder `dir` for this process, or rejects with
 * DataDirLockedError naming the process that holds it. A dead holder's lock is taken over at once.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const lockDir = `${dir}.lock`;
  await ensurePrivateDir(lockDir);
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const file = path.join(lockDir, `${id}${CLAIM_SUFFIX}`);
  let holder: { file: string; claim: Claim } | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const temp = path.join(lockDir, `.${id}`);
    await writeFile(temp, JSON.stringify(ownClaim()), { mode: PRIVATE_FILE_MODE });
    heldHere.add(file);
    await rename(temp, file);
    const others = await otherLiveClaims(lockDir, file);
    if (others.length === 0) return held(file);
    heldHere.delete(file);
    await removeQuietly(file);
    holder = others[0];
    // Another opener may be withdrawing at this very moment, as this one is: pause and look again.
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
  }
  // Name the holder, not another opener that was withdrawing in the last round: the holder's claim
  // is the one that stays, so the oldest of those still there after the pause.
  holder = (await oldestClaim(await otherLiveClaims(lockDir, file))) ?? holder;
  throw lockedError(path.resolve(dir), holder!.claim, holder!.file);
}

async function oldestClaim<T extends { file: string }>(claims: T[]): Promise<T | undefined> {
  const aged = await Promise.all(claims.map(async (claim) => ({ claim, at: (await stat(claim.file).catch(() => null))?.mtimeMs ?? Infinity })));
  return aged.sort((a, b) => a.at - b.at)[0]?.claim;
}

function held(file: string): DataDirLock {
  // An exit without close() (process.exit, an uncaught error) leaves no claim behind either.
  const onExit = () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  let released: Promise<void> | undefined;
  return {
    file,
    release: () =>
      (released ??= (async () => {
        process.off('exit', onExit);
        heldHere.delete(file);
        await removeQuietly(file);
      })()),
  };
}
