// loadConfig() with the .env files: they are read only from the real process.env, so each case
// runs in a child process (config.test.ts has the variables themselves).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The .env files are read only from the real process.env, so these run loadConfig() in a child
// process whose working directory holds a .env.development like the repository's own.
describe('loadConfig() reading the .env files', () => {
  const tsx = path.resolve('node_modules/.bin/tsx');
  const configModule = new URL('./config.ts', import.meta.url).href;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-config-'));
    await writeFile(
      path.join(dir, '.env.development'),
      'FIREBASE_PROJECT_ID=from-development\nFIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099\n',
    );
    await writeFile(path.join(dir, '.env.production'), 'FIREBASE_PROJECT_ID=from-production\n');
    await writeFile(
      path.join(dir, 'print-config.mts'),
      `import { loadConfig } from ${JSON.stringify(configModule)};\n` +
        'const c = loadConfig();\n' +
        'console.log(JSON.stringify({ nodeEnv: c.nodeEnv, dev: c.dev, projectId: c.firebaseProjectId, ' +
        'emulator: c.firebaseAuthEmulatorHost ?? null, processNodeEnv: process.env.NODE_ENV }));\n',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Only PATH and HOME: nothing of this test process's own environment leaks in. */
  async function configIn(extraEnv: Record<string, string>): Promise<unknown> {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...extraEnv };
    // Next's types declare NODE_ENV always set; leaving it unset is the point here.
    const options = { cwd: dir, env: env as unknown as NodeJS.ProcessEnv };
    const { stdout } = await promisify(execFile)(tsx, ['print-config.mts'], options);
    return JSON.parse(stdout);
  }

  it('does not load .env.development when NODE_ENV is unset', async () => {
    expect(await configIn({})).toEqual({
      nodeEnv: 'production',
      dev: false,
      projectId: 'from-production',
      emulator: null,
      processNodeEnv: 'production',
    });
  });

  it('loads .env.development under NODE_ENV=development', async () => {
    expect(await configIn({ NODE_ENV: 'development' })).toEqual({
      nodeEnv: 'development',
      dev: true,
      projectId: 'from-development',
      emulator: '127.0.0.1:9099',
      processNodeEnv: 'development',
    });
  });
});
