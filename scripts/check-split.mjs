// The split deployment (docs/DEPLOY.md) in a real browser: the pages built and served alone by
// `next start` on one origin, the API and Socket.IO on another (SERVE_NEXT=false,
// ALLOWED_ORIGINS), PGlite in a temporary directory. Two people sign in with the Auth emulator's
// test account, write to each other and send an image; the check fails on any CSP violation,
// console error, API call or socket that does not go to the API's origin.
//
// Not part of `npm test` (a second `next build`): run it after changing CORS, the CSP, the
// public config or the socket client. Needs the test Auth emulator on 127.0.0.1:9199 (TEST_EMULATOR_PORT moves it)
// (`npm run test:e2e` starts it; or `node_modules/.bin/firebase emulators:start --only auth
// --project demo-parley --config firebase.test.json`). The build goes to .next-split
// (SPLIT_SKIP_BUILD=1 reuses it; the ports are part of the build).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, expect as baseExpect } from '@playwright/test';
import { png } from '../testing/png.ts';
import { TEST_EMULATOR_HOST } from './test-emulator.mjs';

const PAGES_PORT = Number(process.env.SPLIT_PAGES_PORT ?? 3320);
const API_PORT = Number(process.env.SPLIT_API_PORT ?? 3321);
const EMULATOR_HOST = TEST_EMULATOR_HOST;
const PAGES = `http://127.0.0.1:${PAGES_PORT}`;
const API = `http://127.0.0.1:${API_PORT}`;
const DIST_DIR = '.next-split';
const START_TIMEOUT_MS = 120_000;
const expect = baseExpect.configure({ timeout: 15_000 });

const publicEnv = {
  NEXT_DIST_DIR: DIST_DIR,
  NEXT_TELEMETRY_DISABLED: '1',
  NEXT_PUBLIC_API_URL: `${API}/api`,
  NEXT_PUBLIC_SOCKET_URL: API,
  NEXT_PUBLIC_FIREBASE_API_KEY: 'demo-api-key',
  NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: 'localhost',
  NEXT_PUBLIC_FIREBASE_PROJECT_ID: 'demo-parley',
  NEXT_PUBLIC_FIREBASE_APP_ID: 'demo-app',
  NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
};

const children = [];
const dir = mkdtempSync(join(tmpdir(), 'parley-split-'));
let browser;
/** What the pages did: problems (CSP violations, console errors), API calls and WebSocket origins. */
const seen = { problems: [], calls: new Set(), sockets: new Set() };

function start(name, command, args, env) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean).slice(-50));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.push(child);
  return { child, tail: () => `${name}:\n${output.slice(-30).join('\n')}` };
}

async function waitForOk(url, process) {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (process && !running(process.child)) throw new Error(`exited while starting\n${process.tail()}`);
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} did not answer 200 within ${START_TIMEOUT_MS / 1000} s${process ? `\n${process.tail()}` : ''}`);
}


/** A person in a browser context of their own, signed in on the pages' origin, with what their page did. */
async function signIn(person) {
  const context = await browser.newContext();
  // Reported through a binding: the page's own scripts are not trusted to keep the list.
  await context.exposeBinding('__reportCspViolation', (_, text) => seen.problems.push(`${person.name}: CSP ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && seen.problems.push(`${person.name}: console ${message.text()}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/socket.io/')) seen.calls.add(`${url.origin}${url.pathname.split('/', 2).join('/')}`);
  });
  page.on('websocket', (socket) => seen.sockets.add(new URL(socket.url()).origin));
  await page.goto(`${PAGES}/account`);
  await page.getByLabel('Display name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Sign in with test account' }).click();
  await expect(page).toHaveURL(/\/main$/);
  await expect(page.getByLabel('Signed in user')).toContainText(person.name);
  return page;
}

async function check() {
  await waitForOk(`http://${EMULATOR_HOST}/`).catch(() => {
    throw new Error(`No Auth emulator on ${EMULATOR_HOST}: start it first (see the top of this file).`);
  });
  if (!process.env.SPLIT_SKIP_BUILD) {
    execFileSync('node_modules/.bin/next', ['build'], { stdio: 'inherit', env: { ...process.env, ...publicEnv, NODE_ENV: 'production' } });
  }
  // The server bundle, outside dist/ (someone may be running it); packages resolve through a link.
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync('node', ['scripts/build-server.mjs', '--outfile', join(dir, 'main.mjs')], { stdio: 'inherit' });

  const server = start('API server', process.execPath, ['--enable-source-maps', join(dir, 'main.mjs')], {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(API_PORT),
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: '',
    REDIS_URL: '',
    SERVE_NEXT: 'false',
    ALLOWED_ORIGINS: PAGES,
    FIREBASE_PROJECT_ID: 'demo-parley',
    // A throwaway local server only: production never accepts the emulator's unsigned tokens.
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
    ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'true',
    LOG_LEVEL: 'warn',
  });
  const pages = start('next start', 'node_modules/.bin/next', ['start', '-p', String(PAGES_PORT), '-H', '127.0.0.1'], {
    ...publicEnv,
    NODE_ENV: 'production',
  });
  await Promise.all([waitForOk(`${API}/api/ready`, server), waitForOk(`${PAGES}/account`, pages)]);

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const id = Math.random().toString(36).slice(2, 8);
  const [aliceName, bobName] = [`Alice ${id}`, `Bob ${id}`];
  const alice = await signIn({ name: aliceName, email: `alice-${id}@example.com` });
  const bob = await signIn({ name: bobName, email: `bob-${id}@example.com` });

  // Alice writes to Bob: he sees it live, replies, and she sees the reply live.
  await alice.getByRole('searchbox', { name: 'Search people' }).fill(bobName);
  await alice.getByRole('region', { name: 'Search people' }).getByRole('button', { name: new RegExp(`^${bobName}`) }).click();
  const aliceThread = alice.getByRole('region', { name: `Conversation with ${bobName}` });
  await alice.getByRole('textbox', { name: 'Message' }).fill('Hello across origins');
  await alice.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(aliceThread.getByText('Sent', { exact: true })).toBeVisible();
  await expect(bob.getByTestId('unread-count')).toHaveText('1');
  await bob.getByRole('navigation', { name: 'Messages' }).getByRole('button', { name: new RegExp(`^${aliceName}`) }).click();
  const bobThread = bob.getByRole('region', { name: `Conversation with ${aliceName}` });
  await expect(bobThread.getByText('Hello across origins')).toBeVisible();
  await bob.getByRole('textbox', { name: 'Message' }).fill('Hi back');
  await bob.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(aliceThread.getByText('Hi back')).toBeVisible();

  // An image: uploaded to the API, shown from the API's origin to both.
  await alice.locator('input[type="file"]').setInputFiles({ name: 'dots.png', mimeType: 'image/png', buffer: png(40, 30) });
  await expect(alice.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await alice.getByRole('button', { name: 'Send', exact: true }).click();
  for (const thread of [aliceThread, bobThread]) {
    const image = thread.getByRole('img', { name: /dots\.png/ });
    await expect(image).toHaveAttribute('src', new RegExp(`^${API}/api/uploads/`));
    await expect.poll(() => image.evaluate((element) => element.complete && element.naturalWidth)).toBe(40);
  }

  const problems = [
    ...seen.problems,
    ...[...seen.calls].filter((call) => !call.startsWith(API)).map((call) => `API or socket call to the pages' origin: ${call}`),
    ...[...seen.sockets].filter((origin) => origin !== API.replace('http:', 'ws:')).map((origin) => `WebSocket to ${origin}`),
  ];
  if (seen.sockets.size === 0) problems.push('no WebSocket opened');
  if (problems.length > 0) throw new Error(`split deployment:\n${problems.join('\n')}`);
  console.log(`split deployment OK: pages ${PAGES}, API and socket ${API}; calls ${[...seen.calls].join(', ')}`);
}

const running = (child) => child.exitCode === null && child.signalCode === null;
try {
  await check();
} catch (error) {
  // A step that timed out says what it waited for; this says why (a blocked image, a refused call).
  if (seen.problems.length > 0) console.error(`Seen in the pages:\n${seen.problems.join('\n')}`);
  throw error;
} finally {
  await browser?.close();
  for (const child of children) if (running(child)) child.kill('SIGTERM'); // our own children, by handle
  await Promise.all(children.map((child) => (running(child) ? new Promise((done) => child.once('exit', done)) : undefined)));
  rmSync(dir, { recursive: true, force: true });
}
