// A throwaway PostgreSQL cluster (bench --postgres, the cluster test): initdb into a temporary
// directory, a free port on 127.0.0.1, stopped at the end; never the system service. Default
// settings (fsync and synchronous_commit on), so acknowledged means durable as in production.
// As root the binaries run as the `postgres` user (initdb refuses root).
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { freePort, run } from './processes';

export interface ThrowawayPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

const DEBIAN_PG_ROOT = '/usr/lib/postgresql';

/** initdb, pg_ctl and postgres: from PATH, else Debian's newest /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(path.join(dir, 'initdb'))) return dir;
  if (!existsSync(DEBIAN_PG_ROOT)) return null;
  const majors = readdirSync(DEBIAN_PG_ROOT).filter((name) => existsSync(path.join(DEBIAN_PG_ROOT, name, 'bin', 'initdb')));
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(DEBIAN_PG_ROOT, newest, 'bin') : null;
}

export async function startPostgres(dir: string): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL not found (initdb): apt-get install postgresql');
  const asRoot = process.getuid?.() === 0;
  const as = (command: string, args: string[]) => {
    const binary = path.join(bin, command);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', binary, ...args]) : run(binary, args);
  };
  await mkdir(dir, { recursive: true });
  if (asRoot) {
    await chmod(dir, 0o777);
    // The cluster's parent directories must be reachable by the postgres user.
    await run('chmod', ['o+x', ...parents(dir)]);
  }
  const data = `${dir}/data`;
  await as('initdb', ['-D', data, '-U', 'parley', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
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
