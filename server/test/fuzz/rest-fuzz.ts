import { Agent } from 'node:http';
import type { Rng } from './prng';
import { sendRaw, sendRequest, type HttpOutcome } from './raw-http';
import { restGenerators } from './rest-cases';
import { type RestCase, type RestIds } from './rest-case-shape';
import { restSentinels, wireCases } from './rest-fixed-cases';
import { isErrorBody, type FuzzTally } from './tally';

const CONCURRENCY = 8;
const RATE_LIMITED = 429;

/** Runs `fn` over `items`, `concurrency` at a time. */
export async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const describeCase = (c: RestCase) => `[${c.category}] ${c.method} ${c.path.slice(0, 160)}${c.body === undefined ? '' : ` body ${String(c.body).slice(0, 80)}`}`;

function check(c: RestCase, outcome: HttpOutcome, tally: FuzzTally): void {
  tally.restRequests.add(c.category);
  if ('error' in outcome) {
    tally.statuses.add('no answer');
    tally.fail(`${describeCase(c)} → ${outcome.error}`);
    return;
  }
  const { status, headers, body } = outcome;
  tally.statuses.add(status);
  const problem = (why: string) => tally.fail(`${describeCase(c)} → ${status} ${body.slice(0, 200)}: ${why}`);
  if (status < 400 || status >= 500) return problem('not a 4xx');
  if (![...c.expect, RATE_LIMITED].includes(status)) problem(`expected ${c.expect.join('/')}`);
  if (headers['set-cookie']) problem('set a cookie');
  if (c.method === 'HEAD') return;
  if (!String(headers['content-type']).startsWith('application/json')) return problem(`content-type ${headers['content-type']}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return problem('body is not JSON');
  }
  if (!isErrorBody(parsed)) problem('body is not {non_field_errors: [...]} or {msg}');
}

export interface RestFuzzResult {
  /** Wire-level refusals whose body is not in our error shapes (Node's and Fastify's own answers). */
  wireShapeGaps: string[];
}

/** Sends `counts[category]` requests of each category, then the wire-level cases. */
export async function runRestFuzz(
  base: string,
  ids: RestIds,
  rng: Rng,
  tally: FuzzTally,
  counts: Readonly<Record<string, number>>,
): Promise<RestFuzzResult> {
  const generators = restGenerators(ids);
  const cases: RestCase[] = restSentinels(ids);
  for (const [category, count] of Object.entries(counts)) {
    const generate = generators[category];
    if (!generate) throw new Error(`no REST generator "${category}"`);
    for (let i = 0; i < count; i++) cases.push(generate(rng));
  }
  shuffle(rng, cases);

  const keepAlive = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  await pool(cases, CONCURRENCY, async (c, index) => {
    // Requests the server may answer before reading their body get a connection of their own.
    const fresh = c.partial || c.chunked || c.category === 'oversized' || c.category === 'upload-post';
    let outcome = await sendRequest(base, c, fresh ? false : keepAlive);
    // A kept-alive connection the server had just closed: the request never reached it; once more on a new one.
    if (!fresh && 'error' in outcome && /ECONNRESET|socket hang up/.test(outcome.error)) outcome = await sendRequest(base, c, false);
    check(c, outcome, tally);
    if (index % 250 === 0 && !(await healthy(base))) tally.crashes++;
  });
  keepAlive.destroy();

  const port = Number(new URL(base).port);
  const wireShapeGaps: string[] = [];
  await Promise.all(
    wireCases(rng).map(async ({ label, bytes }) => {
      const answer = await sendRaw(port, bytes);
      tally.restRequests.add('wire');
      tally.statuses.add(answer.status ?? 'closed');
      if (answer.status !== null && (answer.status < 400 || answer.status >= 500)) {
        tally.fail(`[wire] ${label} → ${answer.text.slice(0, 200)}: not a 4xx`);
      }
      const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
      const json = body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1);
      let shaped = false;
      try {
        shaped = isErrorBody(JSON.parse(json));
      } catch {
        shaped = false;
      }
      if (answer.status !== null && !shaped) wireShapeGaps.push(`${label} → ${answer.status} ${JSON.stringify(body.slice(0, 100))}`);
    }),
  );
  if (!(await healthy(base))) tally.crashes++;
  return { wireShapeGaps };
}

export async function healthy(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base}/api/health`);
    return response.status === 200 && ((await response.json()) as { status?: string }).status === 'ok';
  } catch {
    return false;
  }
}
