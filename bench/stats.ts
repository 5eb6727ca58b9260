// Percentiles and small formatting helpers. Latencies are kept whole (one number per message), so
// percentiles are exact: nearest-rank on the sorted samples. A message that never arrived counts
// as Infinity, so a percentile above the share that arrived is reported as such, not hidden.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentiles(samples: ArrayLike<number>): Percentiles {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  const at = (p: number) => (n === 0 ? NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!);
  let sum = 0;
  let finite = 0;
  for (const value of sorted) {
    if (Number.isFinite(value)) {
      sum += value;
      finite++;
    }
  }
  return { count: n, p50: at(50), p95: at(95), p99: at(99), max: n ? sorted[n - 1]! : NaN, mean: finite ? sum / finite : NaN };
}

export const round = (value: number, digits = 2) => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);

/** Rounds every number in a Percentiles (JSON keeps Infinity as null, so it is spelled out). */
export function rounded(p: Percentiles): Record<string, number | string> {
  return Object.fromEntries(
    Object.entries(p).map(([key, value]) => [key, Number.isFinite(value) ? round(value) : String(value)]),
  );
}

export const ms = (value: number | string | undefined) =>
  value === undefined ? '–' : typeof value === 'string' ? (value === 'Infinity' ? '∞' : value) : !Number.isFinite(value) ? (value > 0 ? '∞' : '–') : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(value >= 10 ? 1 : 2)} ms`;

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The load generator's own event-loop delay (ms), so a saturated generator shows itself. */
export function loopMonitor(): { histogram: IntervalHistogram; report(): { p50: number; p99: number; max: number } } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    histogram,
    report: () => ({
      p50: round(histogram.percentile(50) / 1e6),
      p99: round(histogram.percentile(99) / 1e6),
      max: round(histogram.max / 1e6),
    }),
  };
}

export const delay = (msToWait: number) => new Promise<void>((resolve) => setTimeout(resolve, msToWait));
