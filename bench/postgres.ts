// `--postgres`: a throwaway PostgreSQL cluster for one run (initdb into the run's temporary
// directory, a free port on 127.0.0.1, stopped and deleted at the end), so the server is measured
// on node-postgres without anyone providing a database. Needs initdb/pg_ctl on PATH; as root it
// runs them as the `postgres` user (initdb refuses root). Default settings: fsync and
// synchronous_commit on, so acknowledged means durable as with any production Postgres.
import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

export async function startPostgres(dir: string): Promise<ThrowawayPostgres> {
  const asRoot = process.getuid?.() === 0;
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));
  await mkdir(dir, { recursive: true });
  if (asRoot) {
    await chmod(dir, 0o777);
    // The cluster's parent directories must be reachable by the postgres user.
    await run('chmod', ['o+x', ...parents(dir)]);
  }
  const data = `${dir}/data`;
  await as('initdb', ['-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const port = await freePort();
  await as('pg_ctl', ['-D', data, '-l', `${dir}/postgres.log`, '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start']);
  const { stdout } = await as('postgres', ['--version']);
  return {
    url: `postgres://bench@127.0.0.1:${port}/postgres`,
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
