// Lighthouse (from npm, its default mobile profile with simulated throttling) on a page of the
// production build, in Debian's Chromium. Run as its CLI in a child process: it launches and
// closes its own browser, unless the page needs a signed-in user: then the browser is ours, its
// profile holds the user's localStorage (`token`, `locale`), and Lighthouse attaches to it and
// keeps the storage. The median run by score is reported.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright';
import { REPO_ROOT, freePort } from '../processes';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface LighthouseRun {
  /** Performance score, 0–100. */
  score: number;
  /** Milliseconds, except cls (unitless). */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; speedIndex: number; tti: number };
}

export interface LighthouseResult extends LighthouseRun {
  url: string;
  version: string;
  runs: LighthouseRun[];
  /** Runs Lighthouse itself gave up on (e.g. NO_NAVSTART, a trace it could not record): not scored. */
  failedRuns: string[];
}

interface Report {
  lighthouseVersion: string;
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number }>;
}

export interface LighthouseOptions {
  dir: string;
  runs: number;
  chromePath: string;
  /** localStorage for the page's origin before every run (a signed-in user); the browser is then ours. */
  storage?: Record<string, string>;
}

/** A browser with `storage` in its profile for `url`'s origin, open for Lighthouse on a debugging port. */
async function browserWithStorage(url: string, options: LighthouseOptions & { storage: Record<string, string> }) {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'parley-lighthouse-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: options.chromePath,
    headless: true,
    args: [...CHROME_FLAGS.filter((flag) => !flag.startsWith('--headless')), `--remote-debugging-port=${port}`],
  });
  const page = await context.newPage();
  await page.goto(new URL('/api/health', url).href);
  await page.evaluate((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, options.storage);
  await page.close();
  return {
    port,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export async function runLighthouse(url: string, options: LighthouseOptions): Promise<LighthouseResult> {
  const runs: LighthouseRun[] = [];
  const failedRuns: string[] = [];
  let version = 'unknown';
  const ours = options.storage ? await browserWithStorage(url, { ...options, storage: options.storage }) : null;
  try {
    for (let i = 0; i < options.runs; i++) {
      const outcome = await runOnce(url, options, i, ours?.port ?? null);
      if ('failed' in outcome) failedRuns.push(outcome.failed);
      else {
        version = outcome.version;
        runs.push(outcome.run);
      }
    }
  } finally {
    await ours?.close();
  }
  if (runs.length === 0) throw new Error(`every Lighthouse run failed: ${failedRuns.join(' | ')}`);
  const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor((runs.length - 1) / 2)]!;
  return { url, version, ...median, runs, failedRuns };
}

/** One Lighthouse run: in a browser of its own, or attached to ours on `port` (storage kept). */
async function runOnce(url: string, options: LighthouseOptions, i: number, port: number | null): Promise<{ run: LighthouseRun; version: string } | { failed: string }> {
  const output = path.join(options.dir, `lighthouse-${new URL(url).pathname.replace(/\W+/g, '') || 'root'}-${i}.json`);
  const browser = port === null ? [`--chrome-flags=${CHROME_FLAGS.join(' ')}`] : [`--port=${port}`, '--disable-storage-reset'];
  let failed = '';
  const ran = await run(
    process.execPath,
    [CLI, url, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${output}`, ...browser],
    { env: { ...process.env, CHROME_PATH: options.chromePath }, maxBuffer: 64 * 1024 * 1024 },
  ).then(
    () => true,
    (error: { stderr?: string; message?: string }) => {
      failed = ((error.stderr || error.message) ?? 'failed').trim().split('\n').slice(-2).join(' ');
      return false;
    },
  );
  if (!ran) return { failed };
  const report = JSON.parse(await readFile(output, 'utf8')) as Report;
  const audit = (id: string) => Math.round((report.audits[id]?.numericValue ?? NaN) * 1000) / 1000;
  return {
    version: report.lighthouseVersion,
    run: {
      score: Math.round((report.categories.performance.score ?? 0) * 100),
      metrics: {
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        speedIndex: audit('speed-index'),
        tti: audit('interactive'),
      },
    },
  };
}
