// The test-machine setup (scripts/test-setup.mjs), run as on machines that lack what it installs: a
// fake system root (TEST_SETUP_ROOT) without Chromium, its headless shell or redis-server, a PATH holding only node,
// no Playwright browser. The real install runs in CI (.ci/run) on a fresh machine.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, 'test-setup.mjs');
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((file) => existsSync(file));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'parley-setup-'));
  await mkdir(path.join(root, 'path'));
  await symlink(process.execPath, path.join(root, 'path', 'node'));
  await mkdir(path.join(root, 'etc'));
  await mkdir(path.join(root, 'usr', 'bin'), { recursive: true });
  // Readable by `nobody`, for the case run without root.
  await chmod(root, 0o755);
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function setOs(osRelease: string): Promise<void> {
  await writeFile(path.join(root, 'etc', 'os-release'), osRelease);
}
const FILES: Record<string, string> = {
  chromium: 'usr/bin/chromium',
  'chromium-headless-shell': 'usr/lib/chromium/chromium-headless-shell',
  'redis-server': 'usr/bin/redis-server',
};
async function setInstalled(names: string[]): Promise<void> {
  for (const [name, at] of Object.entries(FILES)) {
    const file = path.join(root, at);
    await mkdir(path.dirname(file), { recursive: true });
    if (names.includes(name)) await writeFile(file, '#!/bin/sh\n', { mode: 0o755 });
    else await rm(file, { force: true });
  }
}

/** The script's exit code and output, under the fake root; as `nobody` when asked (and this process is root). */
async function setup(args: string[], { asNobody = false } = {}): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    PATH: path.join(root, 'path'),
    TEST_SETUP_ROOT: root,
    PLAYWRIGHT_BROWSERS_PATH: path.join(root, 'no-browsers'),
  };
  const [command, ...rest] =
    asNobody && process.getuid?.() === 0 && RUNUSER
      ? [RUNUSER, '-u', 'nobody', '--', '/usr/bin/env', ...Object.entries(env).map(([key, value]) => `${key}=${value}`), process.execPath, SCRIPT, ...args]
      : [process.execPath, SCRIPT, ...args];
  try {
    const { stdout, stderr } = await promisify(execFile)(command!, rest, { env, cwd: path.dirname(path.dirname(SCRIPT)) });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, out: stdout + stderr };
  }
}

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
const UBUNTU = 'PRETTY_NAME="Ubuntu 24.04 LTS"\nID=ubuntu\nID_LIKE=debian\n';

describe('npm run test:setup', () => {
  it('passes its check when Chromium, its headless shell and redis-server are there', async () => {
    await setOs(DEBIAN);
    await setInstalled(['chromium', 'chromium-headless-shell', 'redis-server']);
    expect(await setup(['--check'])).toEqual({ code: 0, out: '' });
    expect(await setup([])).toMatchObject({ code: 0, out: expect.stringContaining('Test machine ready') });
  });

  it('stops npm test at once, naming what is missing and the command that installs it', async () => {
    await setOs(DEBIAN);
    await setInstalled([]);
    const { code, out } = await setup(['--check']);
    expect(code).toBe(1);
    expect(out).toBe(
      'npm test needs chromium (the notifications spec), chromium-headless-shell (the end-to-end suite), redis-server (the Redis adapter and cluster tests), not found on this ' +
        'machine. Install with: npm run test:setup (as root).\n',
    );
  });

  it('installs with apt-get on Debian, only what is missing', async () => {
    await setOs(DEBIAN);
    await setInstalled(['chromium', 'chromium-headless-shell']);
    expect(await setup(['--dry-run'])).toEqual({
      code: 0,
      out: 'apt-get update -qq\napt-get install -y -qq --no-install-recommends redis-server\n',
    });
    await setInstalled([]);
    expect((await setup(['--dry-run'])).out).toContain('apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell redis-server\n');
  });

  it('on Ubuntu, takes redis-server from apt-get and Playwright’s own Chromium (Ubuntu’s is a snap)', async () => {
    await setOs(UBUNTU);
    await setInstalled([]);
    expect(await setup(['--dry-run'])).toEqual({
      code: 0,
      out: 'apt-get update -qq\napt-get install -y -qq --no-install-recommends redis-server\nnpx playwright install --with-deps chromium\n',
    });
  });

  it('stops at once on another system, naming the commands to run there', async () => {
    await setOs('ID=fedora\n');
    await setInstalled(['chromium', 'chromium-headless-shell']);
    const { code, out } = await setup([]);
    expect(code).toBe(1);
    expect(out).toMatch(/needs redis-server .*only on Debian or Ubuntu.*Install redis-server from your package manager/);
    expect(out).not.toMatch(/playwright/);
  });

  it('stops at once without root, naming the command that would install', async () => {
    await setOs(DEBIAN);
    await setInstalled([]);
    const { code, out } = await setup([], { asNobody: true });
    expect(code).toBe(1);
    expect(out).toContain('Installing needs root: sudo npm run test:setup (it runs: apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell redis-server).');
  });
});
