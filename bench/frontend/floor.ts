// The front end's floor: the same framework with nothing of Parley in it. A Next app of one
// client page, built and served by `next start` on this machine like Parley's, renders a list of
// rows once it has hydrated (its data already in the page: no request to wait for). The time from
// navigation start to that list on screen is what Next and React cost here before any list can
// show; Parley's figure beside it says how much of its own is left (BENCHMARKS.md, "Front end").
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright';
import { REPO_ROOT, freePort } from '../processes';
import { delay, round } from '../stats';
import { benchInitScript, waitForMark } from './page-clock';

const run = promisify(execFile);
const NEXT = path.join(REPO_ROOT, 'node_modules', '.bin', 'next');

export interface FloorResult {
  /** Navigation start → the list on screen, each counted visit (ms). */
  listMs: number[];
  medianMs: number;
  buildMs: number;
}

const ROWS = 30;

// JavaScript files (no TypeScript): the app needs no tsconfig of its own. The rows carry the same
// markup the page clock looks for in Parley's list.
const FILES: Record<string, string> = {
  'next.config.mjs': `export default { poweredByHeader: false, turbopack: { root: ${JSON.stringify(REPO_ROOT)} } };\n`,
  'app/layout.jsx': `export const metadata = { title: 'Floor' };
export default function RootLayout({ children }) {
  return (<html lang="en"><body>{children}</body></html>);
}
`,
  // What Parley's visits start from: a JSON answer of the same origin (Parley's is /api/health).
  'app/health/route.js': `export function GET() { return Response.json({ ok: true }); }\n`,
  'app/page.jsx': `'use client';
import { useEffect, useState } from 'react';
const ROWS = Array.from({ length: ${ROWS} }, (_, i) => ({ id: i + 1, name: i === 0 ? 'floor-peer' : 'person ' + (i + 1), text: 'the last message of conversation ' + (i + 1) }));
export default function Page() {
  const [rows, setRows] = useState(null);
  useEffect(() => setRows(ROWS), []);
  return (
    <nav aria-label="Messages">
      {rows === null ? <p>Loading</p> : rows.map((row) => (
        <div data-row key={row.id}><strong>{row.name}</strong> <span>{row.text}</span></div>
      ))}
    </nav>
  );
}
`,
};

/** Builds the floor app, serves it, and times `runs` first visits after one warm-up. */
export async function measureFloor(browser: Browser, runs: number): Promise<FloorResult> {
  const dir = path.join(REPO_ROOT, '.data', `bench-floor-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  let server: ChildProcess | undefined;
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
    const started = performance.now();
    await run(NEXT, ['build', dir], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
    const buildMs = Math.round(performance.now() - started);
    const port = await freePort();
    server = spawn(NEXT, ['start', dir, '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, env, stdio: 'ignore' });
    const url = `http://127.0.0.1:${port}`;
    await waitUntilServing(url);
    const listMs: number[] = [];
    const init = { peerName: 'floor-peer', lastText: '-', missedLast: '-', minRows: ROWS };
    for (let i = -1; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        await context.addInitScript(benchInitScript(init));
        const page = await context.newPage();
        // From a JSON answer of the same origin, as Parley's visits start from /api/health.
        await page.goto(`${url}/health`);
        await page.goto(url, { waitUntil: 'commit' });
        await waitForMark(page, 'list');
        const at = await page.evaluate(() => (window as unknown as { __bench: { list: number } }).__bench.list);
        if (i >= 0) listMs.push(round(at, 1));
      } finally {
        await context.close();
      }
    }
    const sorted = [...listMs].sort((a, b) => a - b);
    return { listMs, medianMs: sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN, buildMs };
  } finally {
    server?.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

async function waitUntilServing(url: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  throw new Error(`the floor app did not answer at ${url}`);
}
