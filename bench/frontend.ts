// Part 4: the production build in Chromium.
//
// The build: a copy of the working tree (tracked and untracked, not ignored files) under
// .data/bench-src, built there with `next build` (no emulator variables, as a production build) and
// scripts/build-server.mjs. Building in a copy keeps Next from touching the shared tree (it adds
// its output folder to tsconfig.json) and from clashing with other builds. .data/ is ignored by
// git, tsc and eslint. The copy resolves packages from the repository's node_modules (parent dir).
//
// Measured:
// - JS weight: every script response of a first visit (fresh context, empty cache), gzipped here
//   with zlib's default level (6), summed. /account signed out; /main signed in, until the
//   conversation list is on screen and the network is idle.
// - Navigation: a signed-in user (token and locale in localStorage) with C conversations, one of
//   them T messages long. From navigation start (the page's performance.now() origin) until the
//   list is on screen; then from the click on the long conversation until its newest message is
//   on screen (the thread is virtualised: only the messages that fit are in the DOM). Checked on
//   every animation frame by an init script, so the figures are the page's own clock. One warm-up
//   visit first (not counted), then `runs` visits; the median is reported.
// - Catch-up: with that thread open, the browser goes offline, X messages from the peer are
//   written while it is away (server stopped, rows written straight into its database, server
//   started again: one transaction per message through a socket would take far longer than the
//   thing measured), then the browser comes back online: time until the last of them is on screen.
import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright';
import { connectOne, type BenchUser } from './clients';
import { REPO_ROOT, buildServerBundle, freePort, runTs, startServer, type MeasuredProcess } from './processes';
import { delay, round } from './stats';

const run = promisify(execFile);

export interface PageWeight {
  gzipBytes: number;
  rawBytes: number;
  scripts: number;
  files: { url: string; raw: number; gzip: number }[];
}
export interface NavigationRun {
  listMs: number;
  threadMs: number;
  readyMs: number;
  /** Where the time to the list went: page milestones and the API requests (ms since navigation start). */
  timeline: { what: string; startMs: number; endMs: number }[];
}
export interface FrontendResult {
  thread: number;
  conversations: number;
  missed: number;
  buildMs: number;
  account: PageWeight;
  main: PageWeight;
  /** Scripts loaded after the click that opened the thread (lazy chunks), not in main's figure. */
  mainAfterClick: PageWeight;
  /** The median run (by readyMs). */
  navigation: NavigationRun | null;
  navigationRuns: NavigationRun[];
  catchUp: {
    missed: number;
    caughtUpMs: number;
    reconnectedMs: number | null;
    listUpdatedMs: number | null;
    /** From the WebSocket frames as the page saw them (its main thread handles both). */
    sync: SyncTrace | null;
    /** The page's long tasks (> 50 ms) during the catch-up: main-thread time. */
    longTasks: { count: number; totalMs: number; longestMs: number };
    /** The same sync pages asked again afterwards by a Node client: the server's share. */
    serverReplay: { requests: number; totalMs: number; slowestMs: number } | null;
  } | null;
  notes: string[];
}
export interface FrontendOptions {
  dir: string;
  thread: number;
  conversations: number;
  missed: number;
  runs?: number;
  /** Keep the built copy (to look into its chunks). */
  keep?: boolean;
  seed: (dir: string, count: number, prefix: string, extra?: string[]) => Promise<{ users: BenchUser[]; seedMs: number }>;
  log: (line: string) => void;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const CONVERSATION_PAGE_SIZE = 30; // lib/contract: the list's first page

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

function weigh(responses: { url: string; body: Buffer }[]): PageWeight {
  const seen = new Set<string>();
  const files: PageWeight['files'] = [];
  for (const { url, body } of responses) {
    if (seen.has(url)) continue;
    seen.add(url);
    files.push({ url: new URL(url).pathname, raw: body.length, gzip: gzipSync(body).length });
  }
  return {
    gzipBytes: files.reduce((sum, file) => sum + file.gzip, 0),
    rawBytes: files.reduce((sum, file) => sum + file.raw, 0),
    scripts: files.length,
    files: files.sort((a, b) => b.gzip - a.gzip),
  };
}

/** Collects every script body the page downloads while `collecting` says so. */
function scriptRecorder(page: Page) {
  const bodies: Promise<{ url: string; body: Buffer; phase: string } | null>[] = [];
  let phase = 'load';
  page.on('response', (response: Response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && !/\.m?js(\?|$)/.test(new URL(response.url()).pathname)) return;
    const at = phase;
    bodies.push(response.body().then((body) => ({ url: response.url(), body, phase: at }), () => null));
  });
  return {
    setPhase: (next: string) => {
      phase = next;
    },
    async collect(which: string) {
      const all = (await Promise.all(bodies)).filter((entry): entry is { url: string; body: Buffer; phase: string } => entry !== null);
      return weigh(all.filter((entry) => entry.phase === which));
    },
  };
}

/**
 * Runs in the page before its own scripts: records, on the page's clock, when things are on
 * screen (checked every animation frame). A string, not a function: tsx would wrap a function's
 * inner names in a helper that the page does not have.
 */
function benchInitScript(init: { peerName: string; lastText: string; missedLast: string; minRows: number }): string {
  return `(() => {
    const init = ${JSON.stringify(init)};
    window.__bench = {};
    const check = () => {
      const b = window.__bench;
      const list = document.querySelector('nav[aria-label="Messages"]');
      if (!b.list && list && list.querySelectorAll('[data-row]').length >= init.minRows && list.textContent.includes(init.peerName)) b.list = performance.now();
      const thread = document.querySelector('section[aria-label="Conversation with ' + init.peerName + '"]');
      if (b.clickAt && !b.thread && thread && thread.textContent.includes(init.lastText)) b.thread = performance.now();
      if (b.catchFrom) {
        const status = document.querySelector('[role="status"][data-state]');
        if (!b.reconnected && status && status.getAttribute('data-state') === 'connected') b.reconnected = performance.now();
        if (!b.caught && thread && thread.textContent.includes(init.missedLast)) b.caught = performance.now();
        if (!b.listUpdated && list && list.textContent.includes(init.missedLast)) b.listUpdated = performance.now();
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
    // The page's main thread: long tasks (> 50 ms) from the moment the catch-up starts.
    try {
      new PerformanceObserver((list) => {
        const b = window.__bench;
        for (const entry of list.getEntries()) {
          if (!b.catchFrom || entry.startTime < b.catchFrom) continue;
          b.longTaskMs = (b.longTaskMs || 0) + entry.duration;
          b.longTasks = (b.longTasks || 0) + 1;
          b.longestTask = Math.max(b.longestTask || 0, entry.duration);
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch (error) {}
    document.addEventListener('click', () => { if (!window.__bench.clickAt) window.__bench.clickAt = performance.now(); }, true);
  })();`;
}

export interface SyncTrace {
  requests: number;
  /**
   * Sum over sync requests of request sent → ack received, as the page's WebSocket saw them:
   * the renderer reports a frame when its main thread handles it, so a busy page counts here too.
   */
  serverMs: number;
  /** Sum of ack handled → next request sent (the client merging a page). */
  clientBetweenMs: number;
  /** Bytes of the acks (uncompressed frames). */
  ackBytes: number;
  /** The slowest single request → ack. */
  slowestMs: number;
}

/** Watches the page's WebSockets for Socket.IO `sync` requests (42<id>["sync",…]) and their acks (43<id>[…]). */
function syncTracer(page: Page) {
  const sent = new Map<string, number>();
  const pairs: { sentAt: number; ackAt: number; bytes: number }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      const match = /^42(\d+)\["sync"/.exec(text);
      if (match) sent.set(match[1]!, performance.now());
    });
    ws.on('framereceived', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      const match = /^43(\d+)/.exec(text);
      const sentAt = match ? sent.get(match[1]!) : undefined;
      if (match && sentAt !== undefined) {
        sent.delete(match[1]!);
        pairs.push({ sentAt, ackAt: performance.now(), bytes: text.length });
      }
    });
  });
  return (): SyncTrace | null => {
    if (pairs.length === 0) return null;
    pairs.sort((a, b) => a.sentAt - b.sentAt);
    let clientBetweenMs = 0;
    for (let i = 1; i < pairs.length; i++) clientBetweenMs += Math.max(0, pairs[i]!.sentAt - pairs[i - 1]!.ackAt);
    return {
      requests: pairs.length,
      serverMs: round(pairs.reduce((sum, pair) => sum + pair.ackAt - pair.sentAt, 0), 1),
      clientBetweenMs: round(clientBetweenMs, 1),
      ackBytes: pairs.reduce((sum, pair) => sum + pair.bytes, 0),
      slowestMs: round(Math.max(...pairs.map((pair) => pair.ackAt - pair.sentAt)), 1),
    };
  };
}

/** Asks the server for the last `missed` messages again, page by page, from Node: its share of the catch-up. */
async function replaySync(url: string, user: BenchUser, missed: number): Promise<{ requests: number; totalMs: number; slowestMs: number }> {
  const socket = await connectOne(url, user, undefined, 30_000);
  try {
    type SyncAck = { data: { messages: { seq: number }[]; last_seq: number; has_more: boolean } };
    const probe = (await socket.emitWithAck('sync', { after: 0, limit: 1 })) as SyncAck;
    let after = probe.data.last_seq - missed;
    const times: number[] = [];
    for (;;) {
      const started = performance.now();
      const ack = (await socket.emitWithAck('sync', { after })) as SyncAck;
      times.push(performance.now() - started);
      const last = ack.data.messages.at(-1);
      if (!ack.data.has_more || !last) break;
      after = last.seq;
    }
    return { requests: times.length, totalMs: round(times.reduce((a, b) => a + b, 0), 1), slowestMs: round(Math.max(...times), 1) };
  } finally {
    socket.close();
  }
}

const bench = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Record<string, number> }).__bench);

export async function runFrontend(options: FrontendOptions): Promise<FrontendResult> {
  const { dir, thread, conversations, missed, log } = options;
  const runs = options.runs ?? 3;
  const notes: string[] = [];
  const source = path.join(REPO_ROOT, '.data', `bench-src-${process.pid}`);
  let server: MeasuredProcess | undefined;
  let browser: Browser | undefined;
  try {
    log(`  copying the working tree to ${path.relative(REPO_ROOT, source)} and building it (next build, server bundle)`);
    const buildStart = performance.now();
    await snapshot(source);
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.includes('AUTH_EMULATOR') && key !== 'NEXT_DIST_DIR'));
    const seeding = options.seed(dir, Math.max(2, conversations + 1), 'fe', ['--thread', String(thread), '--conversations', String(conversations)]);
    try {
      await run(path.join(REPO_ROOT, 'node_modules', '.bin', 'next'), ['build'], {
        cwd: source,
        env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(`next build failed (the working tree may hold work in progress):\n${(output.stdout ?? '').slice(-3000)}\n${(output.stderr ?? '').slice(-3000)}`);
    }
    const entry = await buildServerBundle(path.join(source, 'dist-bench'), source);
    const buildMs = Math.round(performance.now() - buildStart);
    const seeded = await seeding;
    log(`  built in ${buildMs} ms; seeded ${seeded.users.length} users, a ${thread}-message thread, ${conversations} conversations in ${seeded.seedMs} ms`);

    const [me, peer] = seeded.users as [BenchUser & { username: string }, BenchUser & { username: string }];
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = path.join(dir, 'data-fe');
    const start = () => startServer({ entry, cwd: source, port, dataDir, logFile: path.join(dir, 'server-frontend.log'), env: { SERVE_NEXT: 'true' } });
    server = await start();
    browser = await chromium.launch({ executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined, args: CHROMIUM_ARGS });

    // /account, signed out, first visit.
    const accountContext = await browser.newContext();
    const accountPage = await accountContext.newPage();
    const accountScripts = scriptRecorder(accountPage);
    await accountPage.goto(`${url}/account`, { waitUntil: 'networkidle' });
    await accountPage.getByRole('button', { name: /Google/ }).waitFor();
    const account = await accountScripts.collect('load');
    await accountContext.close();
    log(`  /account: ${account.scripts} scripts, ${round(account.gzipBytes / 1024, 1)} KiB gzip`);

    // /main, signed in, first visit: list, then the long thread.
    const init = {
      peerName: peer.username,
      lastText: `thread message ${thread} of ${thread}`,
      missedLast: `missed message ${missed} of ${missed}`,
      minRows: Math.min(conversations, CONVERSATION_PAGE_SIZE),
    };
    const navigationRuns: NavigationRun[] = [];
    let main: PageWeight | undefined;
    let mainAfterClick: PageWeight | undefined;
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    // Run -1 warms the server up (Next loads a page's modules on its first request) and is not
    // counted; every run, that one included, is a first visit of its own (fresh context, no cache).
    for (let i = -1; i < runs; i++) {
      await context?.close();
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      await page.goto(`${url}/api/health`);
      await page.evaluate((token) => {
        localStorage.setItem('token', `Bearer ${token}`);
        localStorage.setItem('locale', 'en');
      }, me.token);
      await context.addInitScript(benchInitScript(init));
      const scripts = scriptRecorder(page);
      await page.goto(`${url}/main`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __bench: Record<string, number> }).__bench?.list, null, { timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      scripts.setPhase('click');
      await page.locator('nav[aria-label="Messages"] [data-row]', { hasText: peer.username }).first().click();
      await page.waitForFunction(() => (window as unknown as { __bench: Record<string, number> }).__bench?.thread, null, { timeout: 60_000 });
      const b = await bench(page);
      const timeline = await page.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const rows = [
          { what: 'document', startMs: 0, endMs: navigation?.responseEnd ?? 0 },
          { what: 'DOMContentLoaded', startMs: 0, endMs: navigation?.domContentLoadedEventEnd ?? 0 },
          { what: 'first contentful paint', startMs: 0, endMs: paint?.startTime ?? 0 },
        ];
        for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
          const url = new URL(entry.name);
          if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/socket.io/')) {
            rows.push({ what: `${url.pathname}${url.search.slice(0, 40)}`, startMs: entry.startTime, endMs: entry.responseEnd });
          }
        }
        return rows;
      });
      const timing: NavigationRun = {
        listMs: round(b.list!, 1),
        threadMs: round(b.thread! - b.clickAt!, 1),
        readyMs: round(b.list! + (b.thread! - b.clickAt!), 1),
        timeline: timeline.map((row) => ({ what: row.what, startMs: round(row.startMs, 1), endMs: round(row.endMs, 1) })),
      };
      if (i >= 0) navigationRuns.push(timing);
      log(`  /main ${i < 0 ? 'warm-up' : `run ${i + 1}`}: list on screen ${timing.listMs} ms after navigation start; thread ${timing.threadMs} ms after the click`);
      if (i === 0) {
        await page.waitForLoadState('networkidle');
        main = await scripts.collect('load');
        mainAfterClick = await scripts.collect('click');
        log(`  /main: ${main.scripts} scripts, ${round(main.gzipBytes / 1024, 1)} KiB gzip (+${mainAfterClick.scripts} after opening the thread)`);
      }
    }
    const sorted = [...navigationRuns].sort((a, b) => a.readyMs - b.readyMs);
    const navigation = sorted[Math.floor((sorted.length - 1) / 2)] ?? null;

    // Catch-up, on the last run's page with the long thread open.
    let catchUp: FrontendResult['catchUp'] = null;
    if (missed > 0 && page && context) {
      await delay(1000);
      await context.setOffline(true);
      await page.waitForSelector('[role="status"][data-state]:not([data-state="connected"])', { timeout: 15_000 });
      await server.stop();
      const seedStart = performance.now();
      await runTs(path.join(REPO_ROOT, 'bench', 'seed.ts'), ['--data-dir', dataDir, '--missed', String(missed), '--from', String(peer.id), '--to', String(me.id)]);
      log(`  wrote ${missed} missed messages in ${Math.round(performance.now() - seedStart)} ms (server stopped, browser offline)`);
      server = await start();
      const trace = syncTracer(page);
      await page.evaluate(() => {
        (window as unknown as { __bench: Record<string, number> }).__bench.catchFrom = performance.now();
      });
      await context.setOffline(false);
      try {
        await page.waitForFunction(() => (window as unknown as { __bench: Record<string, number> }).__bench?.caught, null, { timeout: 60_000 });
      } catch {
        notes.push(`catch-up: the last missed message was not on screen within 60 s`);
      }
      const b = await bench(page);
      const since = (at: number | undefined) => (at ? round(at - b.catchFrom!, 1) : null);
      const serverReplay = await replaySync(url, me, missed).catch(() => null);
      catchUp = {
        missed,
        caughtUpMs: since(b.caught) ?? Infinity,
        reconnectedMs: since(b.reconnected),
        listUpdatedMs: since(b.listUpdated),
        sync: trace(),
        longTasks: { count: b.longTasks ?? 0, totalMs: round(b.longTaskMs ?? 0, 1), longestMs: round(b.longestTask ?? 0, 1) },
        serverReplay,
      };
      log(`  catch-up of ${missed}: reconnected after ${catchUp.reconnectedMs} ms, last message on screen after ${catchUp.caughtUpMs} ms, list updated after ${catchUp.listUpdatedMs} ms`);
      if (catchUp.sync) {
        const t = catchUp.sync;
        log(`  sync as the page saw it: ${t.requests} requests, ${t.serverMs} ms request → ack handled (slowest ${t.slowestMs} ms, ${round(t.ackBytes / 1048576, 1)} MiB), ${t.clientBetweenMs} ms between them`);
      }
      log(`  page long tasks during the catch-up: ${catchUp.longTasks.count}, ${catchUp.longTasks.totalMs} ms in all, longest ${catchUp.longTasks.longestMs} ms`);
      if (serverReplay) log(`  the same ${serverReplay.requests} sync pages from a Node client: ${serverReplay.totalMs} ms in all (slowest ${serverReplay.slowestMs} ms)`);
    }
    await context?.close();
    return {
      thread,
      conversations,
      missed,
      buildMs,
      account,
      main: main!,
      mainAfterClick: mainAfterClick!,
      navigation,
      navigationRuns,
      catchUp,
      notes,
    };
  } finally {
    await browser?.close();
    await server?.stop();
    if (options.keep) log(`  kept the build in ${path.relative(REPO_ROOT, source)}`);
    else await rm(source, { recursive: true, force: true });
  }
}
