// Lighthouse (from npm, its default mobile profile with simulated throttling) on a page of the
// production build, in Debian's Chromium. Run as its CLI in a child process: it launches and
// closes its own browser. The median run by score is reported.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../processes';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface LighthouseRun {
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

export async function runLighthouse(url: string, options: { dir: string; runs: number; chromePath: string }): Promise<LighthouseResult> {
  const runs: LighthouseRun[] = [];
  const failedRuns: string[] = [];
  let version = 'unknown';
  for (let i = 0; i < options.runs; i++) {
    const output = path.join(options.dir, `lighthouse-${i}.json`);
    const ran = await run(
      process.execPath,
      [CLI, url, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${output}`, `--chrome-flags=${CHROME_FLAGS.join(' ')}`],
      { env: { ...process.env, CHROME_PATH: options.chromePath }, maxBuffer: 64 * 1024 * 1024 },
    ).then(
      () => true,
      (error: { stderr?: string; message?: string }) => {
        failedRuns.push(((error.stderr || error.message) ?? 'failed').trim().split('\n').slice(-2).join(' '));
        return false;
      },
    );
    if (!ran) continue;
    const report = JSON.parse(await readFile(output, 'utf8')) as Report;
    version = report.lighthouseVersion;
    const audit = (id: string) => Math.round((report.audits[id]?.numericValue ?? NaN) * 1000) / 1000;
    runs.push({
      score: Math.round((report.categories.performance.score ?? 0) * 100),
      metrics: {
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        speedIndex: audit('speed-index'),
        tti: audit('interactive'),
      },
    });
  }
  if (runs.length === 0) throw new Error(`every Lighthouse run failed: ${failedRuns.join(' | ')}`);
  const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor((runs.length - 1) / 2)]!;
  return { url, version, ...median, runs, failedRuns };
}
