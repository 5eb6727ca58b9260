// Where the page's main thread spends the time until the conversation list is on screen: a
// Chromium trace of one first visit (its own fresh context, not one of the counted runs: tracing
// slows the page), each event's self time on the renderer's main thread summed by what it is
// (compiling scripts, running them, style and layout, painting, garbage collection), and the rest
// of the window idle (waiting on the network). The list's moment comes from the page-clock script
// as a performance mark, which the trace records on the same clock as its events.
// BENCH_TRACE_FILE=<path> keeps the trace, with the page's JavaScript sampled too, to open in
// Chrome's DevTools (Performance, "Load profile").
import { writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright';
import { round } from '../stats';

export interface MainThreadBreakdown {
  /** Navigation start → list on screen, on the trace's clock. */
  windowMs: number;
  /** Self time by kind, ms, largest first; `idle` is the window less every task. */
  byKind: { kind: string; ms: number }[];
  /** The longest tasks in the window (ms since navigation start, and their length). */
  longestTasks: { atMs: number; ms: number }[];
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { navigationId?: string } };
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel', 'v8', 'v8.execute', '__metadata'];

const KINDS: [RegExp, string][] = [
  [/^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.produceCache|v8\.produceModuleCache|CompileScript|CacheScript|v8\.parseOnBackground)/, 'compile'],
  [/^(MajorGC|MinorGC|V8\.GC|BlinkGC|ThreadState::)/, 'garbage collection'],
  [/^(ParseHTML|ParseAuthorStyleSheet)$/, 'HTML and CSS parsing'],
  [/^(UpdateLayoutTree|RecalculateStyles|Layout|UpdateLayerTree|HitTest|ScheduleStyleRecalculation|InvalidateLayout)$/, 'style and layout'],
  [/^(Paint|PrePaint|PaintImage|CompositeLayers|Commit|Layerize|UpdateLayer|RasterTask|Decode Image|ImageDecodeTask)/, 'paint'],
  [/^(EvaluateScript|v8\.evaluateModule|FunctionCall|TimerFire|EventDispatch|FireAnimationFrame|RunMicrotasks|v8\.callFunction|v8\.run|V8\.Execute|XHRReadyStateChange|XHRLoad)/, 'script'],
];

const kindOf = (name: string) => KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';

/** Opens a page (`open`, in a context of its own) and runs `visit` in it under a trace; `listMark` names the page's performance mark for the list. */
export async function traceFirstScreen(
  browser: Browser,
  open: () => Promise<Page>,
  visit: (page: Page) => Promise<void>,
  listMark: string,
): Promise<MainThreadBreakdown> {
  const page = await open();
  const keep = process.env.BENCH_TRACE_FILE;
  await browser.startTracing(page, { categories: keep ? [...CATEGORIES, 'disabled-by-default-v8.cpu_profiler'] : CATEGORIES });
  let buffer: Buffer;
  try {
    await visit(page);
  } finally {
    buffer = await browser.stopTracing();
    await page.context().close();
  }
  if (keep) await writeFile(keep, buffer);
  const trace = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return breakdown(Array.isArray(trace) ? trace : trace.traceEvents, listMark);
}

export function breakdown(events: TraceEvent[], listMark: string): MainThreadBreakdown {
  const mainThreads = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const marks = events.filter((e) => e.cat.includes('blink.user_timing'));
  const end = marks.find((e) => e.name === listMark);
  if (!end) throw new Error(`the trace has no "${listMark}" mark`);
  // The navigation start of the document that drew the list (the mark names its navigation).
  const navigationId = end.args?.data?.navigationId;
  const start = marks.find((e) => e.name === 'navigationStart' && e.args?.data?.navigationId === navigationId);
  if (!start) throw new Error('the trace has no navigationStart before the list');
  const thread = [...mainThreads].find((key) => key.startsWith(`${end.pid}:`));
  const complete = events
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread && e.dur !== undefined && e.ts + e.dur! > start.ts && e.ts < end.ts)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Self time: an event's length less its direct children's (events nest by time on one thread).
  const selfByKind = new Map<string, number>();
  const tasks: { atMs: number; ms: number }[] = [];
  let busy = 0;
  const stack: { end: number; kind: string; self: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      selfByKind.set(done.kind, (selfByKind.get(done.kind) ?? 0) + done.self);
    }
  };
  for (const event of complete) {
    close(event.ts);
    const from = Math.max(event.ts, start.ts);
    const to = Math.min(event.ts + event.dur!, end.ts);
    const ms = (to - from) / 1000;
    const parent = stack.at(-1);
    if (parent) parent.self -= ms;
    else {
      busy += ms;
      tasks.push({ atMs: round((from - start.ts) / 1000, 1), ms: round(ms, 1) });
    }
    // A task wrapper is "other" until one of its children says what it did.
    stack.push({ end: event.ts + event.dur!, kind: kindOf(event.name), self: ms });
  }
  close(Infinity);
  const windowMs = (end.ts - start.ts) / 1000;
  selfByKind.set('idle', windowMs - busy);
  return {
    windowMs: round(windowMs, 1),
    byKind: [...selfByKind.entries()].map(([kind, ms]) => ({ kind, ms: round(ms, 1) })).sort((a, b) => b.ms - a.ms),
    longestTasks: tasks.sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}
