// The trace summary the frontend bench prints: self time by kind between the page's navigation
// start and the list's mark, on the renderer's main thread only.
import { describe, expect, it } from 'vitest';
import { breakdown } from './main-thread';

const PID = 10;
const MAIN = 1;
const meta = [
  { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: PID, tid: MAIN, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: PID, tid: 2, args: { name: 'Compositor' } },
];
const mark = (name: string, ts: number, navigationId: string) => ({ name, cat: 'blink.user_timing', ph: 'R', ts, pid: PID, tid: MAIN, args: { data: { navigationId } } });
const task = (name: string, ts: number, dur: number, tid = MAIN) => ({ name, cat: 'devtools.timeline', ph: 'X', ts, dur, pid: PID, tid });

describe('main-thread breakdown', () => {
  it('sums self time by kind inside the window, counts the rest idle, and lists the longest tasks', () => {
    const result = breakdown(
      [
        ...meta,
        mark('navigationStart', 0, 'old'),
        mark('navigationStart', 1_000, 'page'),
        mark('bench:list', 101_000, 'page'),
        // Before the window: left out.
        task('RunTask', 500, 400),
        // A task of 30 ms: 20 ms running a script, of which 5 ms compiling; 10 ms of its own.
        task('RunTask', 11_000, 30_000),
        task('EvaluateScript', 12_000, 20_000),
        task('v8.compile', 13_000, 5_000),
        // A 10 ms layout, and a task on another thread (not counted).
        task('Layout', 51_000, 10_000),
        task('RunTask', 51_000, 40_000, 2),
        // A task running past the list's mark counts up to it.
        task('FunctionCall', 96_000, 10_000),
      ],
      'bench:list',
    );
    expect(result.windowMs).toBe(100);
    expect(Object.fromEntries(result.byKind.map((row) => [row.kind, row.ms]))).toEqual({
      idle: 55,
      script: 20,
      other: 10,
      'style and layout': 10,
      compile: 5,
    });
    expect(result.longestTasks).toEqual([
      { atMs: 10, ms: 30 },
      { atMs: 50, ms: 10 },
      { atMs: 95, ms: 5 },
    ]);
  });

  it('says so when the list never got its mark', () => {
    expect(() => breakdown([...meta, mark('navigationStart', 0, 'page')], 'bench:list')).toThrow('no "bench:list" mark');
  });
});
