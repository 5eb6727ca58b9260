// Part 4: the production build in Chromium (build: ./build.ts).
//
// Measured:
// - JS weight (./page-weight.ts): /account signed out, first visit; /main signed in, first visit,
//   the scripts requested before the conversation list was on screen (by the page's resource
//   timing); those requested after it, until the network is idle, are reported apart as prefetched.
// - Lighthouse performance on /account, and on /main signed in (./lighthouse.ts).
// - Navigation: a signed-in user (token and locale in localStorage) with C conversations, one of
//   them T messages long. From navigation start (the page's performance.now() origin) until the
//   list is on screen; then from the click on the long conversation until its newest message is
//   on screen (the thread is virtualised: only the messages that fit are in the DOM). Marked on the
//   page's own clock (./page-clock.ts). One warm-up visit first (not counted), then `runs` visits;
//   the median is reported. Every one is a first visit (a fresh browser context: what a new user
//   gets); then, apart, `runs` visits again in one context that has visited once (scripts in its
//   cache, the service worker installed): the two figures say how much of a first visit is the cold
//   cache and the worker's first install, and the Chromium that measured is named with them.
// - Catch-up: with that thread open, the browser goes offline, X messages from the peer are
//   written while it is away (server stopped, rows written straight into its database, server
//   started again: one transaction per message through a socket would take far longer than the
//   thing measured), then the browser comes back online: time until the last of them is on screen.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import type { BenchUser } from '../clients';
import { REPO_ROOT, freePort, runTs, startServer, type MeasuredProcess } from '../processes';
import { round } from '../stats';
import { buildProductionCopy, type ProductionBuild } from './build';
import { runLighthouse, type LighthouseResult } from './lighthouse';
import { measureFloor, type FloorResult } from './floor';
import { traceFirstScreen, type MainThreadBreakdown } from './main-thread';
import { measureCatchUp, type CatchUpResult } from './catch-up';
import { benchInitScript, marks, waitForMark } from './page-clock';
import { scriptRecorder, type PageWeight } from './page-weight';


interface NavigationRun {
  listMs: number;
  threadMs: number;
  readyMs: number;
  /** Where the time to the list went: page milestones and the API requests (ms since navigation start). */
  timeline: { what: string; startMs: number; endMs: number }[];
}
/** /main visited again in a context that has visited it once. */
interface WarmNavigation {
  listMs: number[];
  medianMs: number;
  /** The service worker controlled the page (it is installed on the first visit). */
  controlled: boolean;
  /** Scripts of the last visit served from the browser's cache or the worker (nothing transferred), and fetched. */
  cachedScripts: number;
  fetchedScripts: number;
}
export interface FrontendResult {
  thread: number;
  conversations: number;
  missed: number;
  buildMs: number;
  account: PageWeight;
  lighthouse: LighthouseResult | null;
  /** /main signed in as the seeded user, with their conversation list. */
  lighthouseMain: LighthouseResult | null;
  main: PageWeight;
  /** Scripts requested once the list was on screen, before the click (prefetched at idle), not in main's figure. */
  mainPrefetched: PageWeight;
  /** Scripts loaded after the click that opened the thread (lazy chunks), not in main's figure. */
  mainAfterClick: PageWeight;
  /** The median run (by readyMs). */
  navigation: NavigationRun | null;
  /** The list on screen on later visits of the same browser (./index.ts, measureWarmNavigation). */
  warmNavigation?: WarmNavigation | null;
  /** The Chromium that measured: a version moves every figure here. */
  browserVersion?: string;
  /** One more first visit, traced: the main thread's time until the list, by kind (./main-thread.ts). */
  mainThread: MainThreadBreakdown | null;
  /** The same framework with nothing of Parley's: a one-page Next app's list on screen (./floor.ts). */
  floor: FloorResult | null;
  navigationRuns: NavigationRun[];
  catchUp: CatchUpResult | null;
  notes: string[];
}
export interface FrontendOptions {
  dir: string;
  thread: number;
  conversations: number;
  missed: number;
  runs?: number;
  lighthouseRuns?: number;
  /** Keep the built copy (to look into its chunks). */
  keep?: boolean;
  seed: (dir: string, count: number, prefix: string, extra?: string[]) => Promise<{ users: BenchUser[]; seedMs: number }>;
  log: (line: string) => void;
}

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const CONVERSATION_PAGE_SIZE = 30; // lib/contract: the list's first page

type SeededUser = BenchUser & { username: string };

export async function runFrontend(options: FrontendOptions): Promise<FrontendResult> {
  const { dir, thread, conversations, missed, log } = options;
  const notes: string[] = [];
  let build: ProductionBuild | undefined;
  let server: MeasuredProcess | undefined;
  let browser: Browser | undefined;
  try {
    log(`  copying the working tree to .data/ and building it there (next build, server bundle)`);
    const seeding = options.seed(dir, Math.max(2, conversations + 1), 'fe', ['--thread', String(thread), '--conversations', String(conversations)]);
    build = await buildProductionCopy();
    const seeded = await seeding;
    log(`  built in ${build.buildMs} ms; seeded ${seeded.users.length} users, a ${thread}-message thread, ${conversations} conversations in ${seeded.seedMs} ms`);

    const [me, peer] = seeded.users as [SeededUser, SeededUser];
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = path.join(dir, 'data-fe');
    const { entry, source } = build;
    const start = () => startServer({ entry, cwd: source, port, dataDir, logFile: path.join(dir, 'server-frontend.log'), env: { SERVE_NEXT: 'true' } });
    server = await start();
    browser = await chromium.launch({ executablePath: existsSync(CHROMIUM) ? CHROMIUM : undefined, args: CHROMIUM_ARGS });

    const account = await weighAccount(browser, url);
    log(`  /account: ${account.scripts} scripts, ${round(account.gzipBytes / 1024, 1)} KiB gzip`);
    const lighthouseOn = async (page: string, storage?: Record<string, string>): Promise<LighthouseResult | null> => {
      if (options.lighthouseRuns === 0) return null;
      try {
        const result = await runLighthouse(`${url}${page}`, { dir, runs: options.lighthouseRuns ?? 3, chromePath: CHROMIUM, storage });
        const m = result.metrics;
        log(`  Lighthouse ${result.version} ${page}: performance ${result.score} (median of ${result.runs.map((r) => r.score).join(', ')}); FCP ${m.fcp} ms, LCP ${m.lcp} ms, TBT ${m.tbt} ms, CLS ${m.cls}`);
        return result;
      } catch (error) {
        notes.push(`lighthouse ${page} failed: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`);
        return null;
      }
    };
    const lighthouse = await lighthouseOn('/account');
    const lighthouseMain = await lighthouseOn('/main', { token: `Bearer ${me.token}`, locale: 'en' });

    const navigation = await measureNavigation(browser, url, me, peer, options);
    const warmNavigation = await measureWarmNavigation(browser, url, me, peer, options).catch((error: unknown) => {
      notes.push(`second visits failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
      return null;
    });
    if (warmNavigation) {
      log(
        `  /main visited again in the same browser: list on screen ${warmNavigation.listMs.join(', ')} ms (median ${warmNavigation.medianMs}); ` +
          `service worker ${warmNavigation.controlled ? 'in control' : 'not in control'}; ${warmNavigation.cachedScripts} scripts from cache, ${warmNavigation.fetchedScripts} fetched`,
      );
    }
    const mainThread = await traceMainThread(browser, url, me, peer, options).catch((error: unknown) => {
      notes.push(`main-thread trace failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
      return null;
    });
    const floor = await measureFloor(browser, options.runs ?? 3).catch((error: unknown) => {
      notes.push(`floor app failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
      return null;
    });
    if (floor) log(`  the floor (a one-page Next app, its list rendered once hydrated, no request): list on screen ${floor.listMs.join(', ')} ms (median ${floor.medianMs})`);
    if (mainThread) {
      log(`  /main's main thread until the list (${mainThread.windowMs} ms, traced): ${mainThread.byKind.map((row) => `${row.kind} ${row.ms}`).join(', ')} ms`);
      log(`    longest tasks: ${mainThread.longestTasks.map((task) => `${task.ms} ms at ${task.atMs}`).join(', ')}`);
    }
    let catchUp: CatchUpResult | null = null;
    if (missed > 0) {
      const restart = async () => {
        await server!.stop();
        const seedStart = performance.now();
        await runTs(path.join(REPO_ROOT, 'bench', 'seed.ts'), ['--data-dir', dataDir, '--missed', String(missed), '--from', String(peer.id), '--to', String(me.id)]);
        log(`  wrote ${missed} missed messages in ${Math.round(performance.now() - seedStart)} ms (server stopped, browser offline)`);
        server = await start();
      };
      catchUp = await measureCatchUp(navigation.page, navigation.context, { url, me, peer, missed, restart, notes, log });
    }
    await navigation.context.close();
    return {
      thread,
      conversations,
      missed,
      buildMs: build.buildMs,
      account,
      lighthouse,
      lighthouseMain,
      main: navigation.main,
      mainPrefetched: navigation.mainPrefetched,
      mainAfterClick: navigation.mainAfterClick,
      navigation: navigation.median,
      warmNavigation,
      browserVersion: browser.version(),
      mainThread,
      floor,
      navigationRuns: navigation.runs,
      catchUp,
      notes,
    };
  } finally {
    await browser?.close();
    await server?.stop();
    if (options.keep && build) log(`  kept the build in ${path.relative(REPO_ROOT, build.source)}`);
    else await build?.remove();
  }
}

/** /account, signed out, first visit: the scripts until the sign-in buttons are there and the network is idle. */
async function weighAccount(browser: Browser, url: string): Promise<PageWeight> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts = scriptRecorder(page);
    await page.goto(`${url}/account`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: /Google/ }).waitFor();
    return await scripts.collect('load');
  } finally {
    await context.close();
  }
}

/**
 * /main, signed in, first visits: the list, then the long thread. Run -1 warms the server up (Next
 * loads a page's modules on its first request) and is not counted; every run, that one included,
 * is a first visit of its own (fresh context, no cache). The last run's page stays open.
 */
async function measureNavigation(browser: Browser, url: string, me: SeededUser, peer: SeededUser, options: FrontendOptions) {
  const { log } = options;
  const runs: NavigationRun[] = [];
  let main: PageWeight | undefined;
  let mainPrefetched: PageWeight | undefined;
  let mainAfterClick: PageWeight | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  for (let i = -1; i < (options.runs ?? 3); i++) {
    await context?.close();
    page = await signedInPage(browser, url, me, peer, options);
    context = page.context();
    const scripts = scriptRecorder(page);
    await page.goto(`${url}/main`, { waitUntil: 'commit' });
    await waitForMark(page, 'list');
    await page.waitForLoadState('networkidle');
    scripts.setPhase('click');
    await page.locator('nav[aria-label="Messages"] [data-row]', { hasText: peer.username }).first().click();
    await waitForMark(page, 'thread');
    const b = await marks(page);
    const timing: NavigationRun = {
      listMs: round(b.list!, 1),
      threadMs: round(b.thread! - b.clickAt!, 1),
      readyMs: round(b.list! + (b.thread! - b.clickAt!), 1),
      timeline: await timeline(page, b.list!),
    };
    if (i >= 0) runs.push(timing);
    const scriptsIn = timing.timeline.find((row) => row.what.endsWith('scripts before the list'));
    const slowest = timing.timeline.find((row) => row.what.startsWith('the slowest script'));
    const arrival = scriptsIn && slowest ? ` (its scripts in by ${scriptsIn.endMs} ms, the slowest waited ${round(slowest.endMs - slowest.startMs, 1)} ms for its first byte)` : '';
    log(`  /main ${i < 0 ? 'warm-up' : `run ${i + 1}`}: list on screen ${timing.listMs} ms after navigation start${arrival}; thread ${timing.threadMs} ms after the click`);
    if (i === 0) {
      await page.waitForLoadState('networkidle');
      // Requested before the list was on screen (the page's own clock): what the first screen needed.
      const listAt = b.list!;
      const startedAt = await page.evaluate(() =>
        Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime])),
      );
      const beforeList = (url: string) => (startedAt[url] ?? Infinity) < listAt;
      main = await scripts.collect('load', beforeList);
      mainPrefetched = await scripts.collect('load', (url) => !beforeList(url));
      mainAfterClick = await scripts.collect('click');
      log(
        `  /main: ${main.scripts} scripts, ${round(main.gzipBytes / 1024, 1)} KiB gzip before the list was on screen ` +
          `(+${round(mainPrefetched.gzipBytes / 1024, 1)} KiB in ${mainPrefetched.scripts} prefetched after it, +${mainAfterClick.scripts} after opening the thread)`,
      );
    }
  }
  const sorted = [...runs].sort((a, b) => a.readyMs - b.readyMs);
  return { runs, median: sorted[Math.floor((sorted.length - 1) / 2)] ?? null, main: main!, mainPrefetched: mainPrefetched!, mainAfterClick: mainAfterClick!, context: context!, page: page! };
}

/**
 * /main in one browser context, visited once (not counted: it fills the cache and installs the
 * service worker) and then `runs` times more, each until the list is on screen and the network is
 * idle: what a returning user gets, against measureNavigation's first visits.
 */
async function measureWarmNavigation(browser: Browser, url: string, me: SeededUser, peer: SeededUser, options: FrontendOptions): Promise<WarmNavigation> {
  const page = await signedInPage(browser, url, me, peer, options);
  try {
    await page.goto(`${url}/main`, { waitUntil: 'commit' });
    await waitForMark(page, 'list');
    await page.waitForLoadState('networkidle');
    const listMs: number[] = [];
    let last = { controlled: false, cached: 0, fetched: 0 };
    for (let i = 0; i < (options.runs ?? 3); i++) {
      await page.goto(`${url}/main`, { waitUntil: 'commit' });
      await waitForMark(page, 'list');
      listMs.push(round((await marks(page)).list!, 1));
      last = await page.evaluate(() => {
        const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.initiatorType === 'script');
        return {
          controlled: navigator.serviceWorker?.controller != null,
          cached: scripts.filter((entry) => entry.transferSize === 0).length,
          fetched: scripts.filter((entry) => entry.transferSize > 0).length,
        };
      });
      await page.waitForLoadState('networkidle');
    }
    const sorted = [...listMs].sort((a, b) => a - b);
    return { listMs, medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!, controlled: last.controlled, cachedScripts: last.cached, fetchedScripts: last.fetched };
  } finally {
    await page.context().close();
  }
}

/** What the page clock looks for: the seeded list and the peer's long thread. */
function clockInit(peer: SeededUser, options: FrontendOptions) {
  return {
    peerName: peer.username,
    lastText: `thread message ${options.thread} of ${options.thread}`,
    missedLast: `missed message ${options.missed} of ${options.missed}`,
    minRows: Math.min(options.conversations, CONVERSATION_PAGE_SIZE),
  };
}

/** A fresh context signed in as `me` (token and locale stored), its page on /api/health with the page clock installed. */
async function signedInPage(browser: Browser, url: string, me: SeededUser, peer: SeededUser, options: FrontendOptions): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${url}/api/health`);
  await page.evaluate((token) => {
    localStorage.setItem('token', `Bearer ${token}`);
    localStorage.setItem('locale', 'en');
  }, me.token);
  await context.addInitScript(benchInitScript(clockInit(peer, options)));
  return page;
}

/** One more first visit of /main, traced until the list is on screen. */
function traceMainThread(browser: Browser, url: string, me: SeededUser, peer: SeededUser, options: FrontendOptions): Promise<MainThreadBreakdown> {
  return traceFirstScreen(
    browser,
    () => signedInPage(browser, url, me, peer, options),
    async (page) => {
      await page.goto(`${url}/main`, { waitUntil: 'commit' });
      await waitForMark(page, 'list');
    },
    'bench:list',
  );
}

/**
 * Page milestones and the API/socket requests, ms since navigation start; and the scripts asked for
 * before the list, from the first one's request to the last one's answer, with the longest a
 * single one waited for its first byte (on a loopback connection that is the server's queue).
 */
async function timeline(page: Page, listAt: number): Promise<NavigationRun['timeline']> {
  const rows = await page.evaluate((listAt) => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const rows = [
      { what: 'document', startMs: 0, endMs: navigation?.responseEnd ?? 0 },
      { what: 'DOMContentLoaded', startMs: 0, endMs: navigation?.domContentLoadedEventEnd ?? 0 },
      { what: 'first contentful paint', startMs: 0, endMs: paint?.startTime ?? 0 },
    ];
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (entry) => entry.initiatorType === 'script' && entry.startTime < listAt,
    );
    if (scripts.length > 0) {
      rows.push({ what: `${scripts.length} scripts before the list`, startMs: Math.min(...scripts.map((entry) => entry.startTime)), endMs: Math.max(...scripts.map((entry) => entry.responseEnd)) });
      const slowest = scripts.reduce((worst, entry) => (entry.responseStart - entry.requestStart > worst.responseStart - worst.requestStart ? entry : worst));
      rows.push({ what: 'the slowest script: asked → first byte', startMs: slowest.requestStart, endMs: slowest.responseStart });
    }
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const url = new URL(entry.name);
      if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/socket.io/')) {
        rows.push({ what: `${url.pathname}${url.search.slice(0, 40)}`, startMs: entry.startTime, endMs: entry.responseEnd });
      }
    }
    return rows;
  }, listAt);
  return rows.map((row) => ({ what: row.what, startMs: round(row.startMs, 1), endMs: round(row.endMs, 1) }));
}
