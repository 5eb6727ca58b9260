// The production build the front-end benchmark measures: a copy of the working tree (tracked and
// untracked, not ignored files) under .data/bench-src-<pid>, built there with `next build` (no
// emulator variables, as a production build) and scripts/build-server.mjs. Building in a copy keeps
// Next from touching the shared tree (it adds its output folder to tsconfig.json) and from clashing
// with other builds. .data/ is ignored by git, tsc and eslint. The copy resolves packages from the
// repository's node_modules (its parent directory).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, buildServerBundle } from '../processes';

const run = promisify(execFile);

export interface ProductionBuild {
  /** The built copy: the server runs from here. */
  source: string;
  /** The server bundle inside it. */
  entry: string;
  buildMs: number;
  remove(): Promise<void>;
}

export async function buildProductionCopy(): Promise<ProductionBuild> {
  const source = path.join(REPO_ROOT, '.data', `bench-src-${process.pid}`);
  const started = performance.now();
  await snapshot(source);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.includes('AUTH_EMULATOR') && key !== 'NEXT_DIST_DIR'));
  try {
    await run(path.join(REPO_ROOT, 'node_modules', '.bin', 'next'), ['build'], {
      cwd: source,
      env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    await rm(source, { recursive: true, force: true });
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`next build failed (the working tree may hold work in progress):\n${(output.stdout ?? '').slice(-3000)}\n${(output.stderr ?? '').slice(-3000)}`);
  }
  const entry = await buildServerBundle(path.join(source, 'dist-bench'), source);
  return { source, entry, buildMs: Math.round(performance.now() - started), remove: () => rm(source, { recursive: true, force: true }) };
}

/** Copies the working tree's files (not node_modules, builds or data) to `target`. */
async function snapshot(target: string): Promise<void> {
  await rm(target, { recursive: true, force: true });
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    // No lockfile in the copy: the bundler then takes the repository as the workspace root, where
    // node_modules is.
    .filter((file) => file !== 'package-lock.json' && !file.startsWith('bench/results/'));
  for (const file of listed) {
    const from = path.join(REPO_ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    await mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await cp(from, path.join(target, file));
  }
}
