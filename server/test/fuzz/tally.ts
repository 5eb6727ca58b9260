// What a fuzz run sent and got, for the summary it prints and the failures it asserts on.

class Counter<K extends string | number = string> {
  readonly counts = new Map<K, number>();
  add(key: K, by = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }
  get total(): number {
    let sum = 0;
    for (const value of this.counts.values()) sum += value;
    return sum;
  }
  get(key: K): number {
    return this.counts.get(key) ?? 0;
  }
  rows(): [K, number][] {
    return [...this.counts.entries()].sort(([a], [b]) => String(a).localeCompare(String(b), 'en', { numeric: true }));
  }
}

export class FuzzTally {
  readonly socketEvents = new Counter();
  readonly socketStyles = new Counter();
  readonly restRequests = new Counter();
  readonly statuses = new Counter<number | string>();
  readonly errorAcks = new Counter();
  readonly failures: string[] = [];
  /** Acks that came back for events the server should ignore. */
  unknownEventAcks = 0;
  /** Moments the server did not answer its health check. */
  crashes = 0;

  fail(message: string): void {
    if (this.failures.length < 10_000) this.failures.push(message);
  }

  /** A plain-text table for the test output. */
  summary(seed: number): string {
    const section = (title: string, counter: Counter<string | number>) => [
      `  ${title} (${counter.total})`,
      ...counter.rows().map(([key, count]) => `    ${String(key).padEnd(26)} ${String(count).padStart(7)}`),
    ];
    return [
      `hostile-input fuzz, seed ${seed} (FUZZ_SEED=${seed} replays it)`,
      ...section('socket events sent, by category', this.socketEvents),
      ...section('socket events, by argument style', this.socketStyles),
      ...section('REST requests, by category', this.restRequests),
      ...section('HTTP status codes', this.statuses),
      ...section('error acks', this.errorAcks),
      `  acks to unknown events      ${String(this.unknownEventAcks).padStart(7)}`,
      `  crashes                     ${String(this.crashes).padStart(7)}`,
      `  failures                    ${String(this.failures.length).padStart(7)}`,
    ].join('\n');
  }
}

/** The error shapes of docs/API.md: exactly `{non_field_errors: [string, ...]}` or `{msg: string}`. */
export function isErrorBody(value: unknown): value is { non_field_errors: string[] } | { msg: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const record = value as Record<string, unknown>;
  if (keys[0] === 'msg') return typeof record.msg === 'string' && record.msg.length > 0;
  if (keys[0] === 'non_field_errors') {
    const list = record.non_field_errors;
    return Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string' && item.length > 0);
  }
  return false;
}

export const isRateLimited = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && /too many requests/i.test(String((body as { msg?: unknown }).msg));
