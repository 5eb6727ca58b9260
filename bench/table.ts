// The printed table: one row per figure, its target, and whether the target was met. A target is
// judged only when the run used the target's load (a smoke run or a smaller run says "n/a").
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { phaseOf } from './delivery';
import { FLOOD_PATH_LOAD, UNLIMITED_PATHS } from './flood-paths';
import type { LighthouseResult } from './frontend/lighthouse';
import type { BenchResults, Row } from './results';
import { kib, ms, round } from './stats';

type Phase = NonNullable<ReturnType<typeof phaseOf>>;

/** "p50 / p99" of the phase before a treatment; "; p50 / p99" of the one after it when it ran. */
function bracket(before: Phase, after: Phase | undefined): string {
  const pair = (phase: Phase) => `${ms(phase.latency.p50)} / ${ms(phase.latency.p99)}`;
  return after ? `${pair(before)}; ${pair(after)}` : pair(before);
}

const num = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value === 'Infinity' ? Infinity : NaN);

export function buildTable(results: BenchResults): Row[] {
  const rows: Row[] = [];
  const o = results.options;
  const judge = (applies: boolean, ok: boolean): Row['verdict'] => (!applies ? 'n/a' : ok ? 'met' : 'MISSED');
  const add = (section: string, metric: string, value: string, target = '', verdict: Row['verdict'] = '') =>
    rows.push({ section, metric, value, target, verdict });

  const steady = phaseOf(results.delivery, 'steady');
  const floorSteady = phaseOf(results.floor, 'steady');
  const atTargetLoad = o.users >= 2000 && o.rate >= 1000 && o.durationS >= 60;
  const ratio = (ours: unknown, floor: unknown) => {
    const a = num(ours);
    const b = num(floor);
    return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : a === Infinity ? Infinity : NaN;
  };
  const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)}×` : value === Infinity ? '∞' : '–');

  for (const [label, phase] of [
    ['delivery', steady],
    ['floor', floorSteady],
  ] as const) {
    if (!phase) continue;
    const isOurs = label === 'delivery';
    const load = `${o.users} users, ${o.rate} msg/s, ${o.durationS} s${isOurs && (o.nodes ?? 1) > 1 ? `, ${o.nodes} nodes` : ''}`;
    add(label, 'load', `${load}; sent ${phase.sentRate}/s, delivered ${phase.deliveredRate}/s${phase.saturatedAtMs !== null ? `, SATURATED at ${phase.saturatedAtMs} ms` : ''}`, isOurs ? '2000 users, 1000 msg/s, 60 s' : '');
    const l = phase.latency;
    add(label, 'send→receive p50 / p95 / p99 / max', `${ms(l.p50)} / ${ms(l.p95)} / ${ms(l.p99)} / ${ms(l.max)}`, isOurs ? 'p50 ≤ 2 ms, p99 ≤ 10 ms' : '', isOurs ? judge(atTargetLoad, num(l.p50) <= 2 && num(l.p99) <= 10) : '');
    if (phase.latencyByRoute) {
      const { sameNode, crossNode } = phase.latencyByRoute;
      add(label, `p50 / p99 on one node / across nodes (${o.nodes} nodes)`, `${ms(sameNode.p50)} / ${ms(sameNode.p99)}; ${ms(crossNode.p50)} / ${ms(crossNode.p99)}`);
    }
    const a = phase.ack;
    add(label, 'ack p50 / p99 / max', `${ms(a.p50)} / ${ms(a.p99)} / ${ms(a.max)}`);
    add(label, 'lost (acked, undelivered) / unacked / errors / dup', `${phase.lost} / ${phase.unacked} / ${phase.ackErrors} / ${phase.duplicates}`, isOurs ? '0 lost' : '', isOurs ? judge(atTargetLoad, phase.lost === 0 && phase.unacked === 0 && phase.ackErrors === 0) : '');
    add(label, 'server CPU / RSS max / loop delay p99', `${phase.server.cpuPercent}% / ${phase.server.rssMaxMiB} MiB / ${ms(phase.server.loopDelay.p99)}`);
    add(label, 'load generator CPU / loop p99 / send lag p99', `${phase.generatorCpuPercent}% / ${ms(phase.generatorLoopDelay.p99)} / ${ms(phase.scheduleLag.p99)}`);
  }
  if (steady && floorSteady) {
    const p50 = ratio(steady.latency.p50, floorSteady.latency.p50);
    const p99 = ratio(steady.latency.p99, floorSteady.latency.p99);
    add('delivery', 'ratio to floor: p50 / p99 / server CPU', `${x(p50)} / ${x(p99)} / ${x(ratio(steady.server.cpuPercent, floorSteady.server.cpuPercent))}`, '', '');
  }

  const changesPhase = phaseOf(results.delivery, 'steady+changes');
  const afterChanges = phaseOf(results.delivery, 'steady after changes');
  if (steady && changesPhase) {
    add('changes', 'send→receive p50 / p99: without changes (before; after) → with 10% reacting and reading', `(${bracket(steady, afterChanges)}) → ${ms(changesPhase.latency.p50)} / ${ms(changesPhase.latency.p99)}`, 'p99 unchanged');
    add('changes', 'ack p99 / server CPU / loop p99, without (before) → with', `${ms(steady.ack.p99)} / ${steady.server.cpuPercent}% / ${ms(steady.server.loopDelay.p99)} → ${ms(changesPhase.ack.p99)} / ${changesPhase.server.cpuPercent}% / ${ms(changesPhase.server.loopDelay.p99)}`);
    add('changes', 'lost / unacked / errors with changes', `${changesPhase.lost} / ${changesPhase.unacked} / ${changesPhase.ackErrors}`, '0 lost');
    const figures = changesPhase.changes;
    if (figures) add('changes', 'changes: users / sent / refused / pushes received', `${figures.changers} / ${figures.changesSent} / ${figures.changesErrors} / ${figures.changesReceived}`);
  }
  const typingPhase = phaseOf(results.delivery, 'steady+typing');
  const afterTyping = phaseOf(results.delivery, 'steady after typing');
  if (steady && typingPhase) {
    const live = typingPhase.live;
    add('live signals', 'send→receive p50 / p99: without typing (before; after) → with 10% typing', `(${bracket(steady, afterTyping)}) → ${ms(typingPhase.latency.p50)} / ${ms(typingPhase.latency.p99)}`, 'p99 unchanged');
    add('live signals', 'ack p99 / server CPU / loop p99, without (before) → with', `${ms(steady.ack.p99)} / ${steady.server.cpuPercent}% / ${ms(steady.server.loopDelay.p99)} → ${ms(typingPhase.ack.p99)} / ${typingPhase.server.cpuPercent}% / ${ms(typingPhase.server.loopDelay.p99)}`);
    add('live signals', 'lost / unacked / errors with typing', `${typingPhase.lost} / ${typingPhase.unacked} / ${typingPhase.ackErrors}`, '0 lost');
    if (live) {
      add('live signals', 'typing: users / signals sent / refused / received; presence subscriptions', `${live.typers} / ${live.typingSent} / ${live.typingErrors} / ${live.typingReceived}; ${live.presenceSubscriptions} (${live.presenceErrors} refused)`);
    }
  }

  const peak = phaseOf(results.delivery, 'peak');
  const floorPeak = phaseOf(results.floor, 'peak');
  if (peak) {
    const peakApplies = o.peakRate >= 5000;
    add('durable', 'peak load', `${o.peakRate} msg/s for ${o.peakDurationS} s${peak.saturatedAtMs !== null ? `: SATURATED at ${peak.saturatedAtMs} ms` : ''}`, '5000 msg/s offered');
    add(
      'durable',
      'acked/s, delivered/s; p99 send→receive',
      `${peak.ackedRate} / ${peak.deliveredRate}; ${ms(peak.latency.p99)}`,
      'every one acked, p99 ≤ 100 ms',
      judge(peakApplies, peak.saturatedAtMs === null && peak.ackedRate >= 0.98 * o.peakRate && num(peak.latency.p99) <= 100 && peak.unacked === 0),
    );
    add('durable', 'server CPU / loop p99 / generator CPU / lost / unacked', `${peak.server.cpuPercent}% / ${ms(peak.server.loopDelay.p99)} / ${peak.generatorCpuPercent}% / ${peak.lost} / ${peak.unacked}`);
    if (floorPeak) {
      add(
        'floor',
        `peak ${o.peakRate} msg/s: sent/s, delivered/s, p99`,
        `${floorPeak.sentRate} / ${floorPeak.deliveredRate}; ${ms(floorPeak.latency.p99)}${floorPeak.saturatedAtMs !== null ? `, SATURATED at ${floorPeak.saturatedAtMs} ms` : ''}; server CPU ${floorPeak.server.cpuPercent}%, generator CPU ${floorPeak.generatorCpuPercent}%`,
      );
    }
  }
  const capacity = phaseOf(results.delivery, 'capacity');
  const floorCapacity = phaseOf(results.floor, 'capacity');
  if (capacity) {
    // Against the floor's closed loop in the same run (the floor's figure is often the generator's limit).
    const share = floorCapacity ? capacity.ackedRate / floorCapacity.ackedRate : null;
    add(
      'durable',
      `capacity (closed loop, ${capacity.concurrency} in flight)`,
      `${capacity.ackedRate} acked/s${share === null ? '' : ` (${Math.round(share * 100)} % of the floor's)`}; ack p50 ${ms(capacity.ack.p50)}, p99 ${ms(capacity.ack.p99)}; server CPU ${capacity.server.cpuPercent}%, generator CPU ${capacity.generatorCpuPercent}%`,
      '≥ 50 % of the floor',
      share === null ? '' : judge(o.capacityConcurrency === 200, share >= 0.5),
    );
  }
  if (floorCapacity) {
    add('floor', `capacity (closed loop, ${floorCapacity.concurrency} in flight)`, `${floorCapacity.ackedRate} acked/s; ack p99 ${ms(floorCapacity.ack.p99)}; server CPU ${floorCapacity.server.cpuPercent}%, generator CPU ${floorCapacity.generatorCpuPercent}%`);
  }

  const c = results.connections;
  if (c) {
    const applies = c.requested >= 20_000;
    // A cap set by this machine (the open-file limit) is not the server's miss: not judged.
    add('connections', 'idle sockets reached', `${c.reached} of ${c.requested}${c.cappedBy ? ' (capped by the open-file limit)' : ''}`, '20000', judge(applies && !c.cappedBy, c.reached >= 20_000));
    add('connections', 'server RSS per socket (after GC)', `${kib(c.rssPerSocketBytes)} (heap ${kib(c.heapPerSocketBytes)})`, '≤ 40 KiB', judge(applies, c.rssPerSocketBytes <= 40 * 1024));
    add('connections', 'connect rate (handshake + init)', `${c.connectRate}/s (${c.rampMs} ms to ${c.reached})`);
    add('connections', 'server loop delay p99: ramp / idle', `${ms(c.rampLoopDelay.p99)} / ${ms(c.idleLoopDelay.p99)} (idle max ${ms(c.idleLoopDelay.max)})`, 'idle p99 ≤ 20 ms', judge(applies, c.idleLoopDelay.p99 <= 20));
  }

  const flood = results.flood;
  if (flood?.paths) {
    // Judged at the full run's size only: a smoke run's few sends make p99 one sample.
    const applies = flood.durationS >= 10 && flood.victims >= 10;
    add('flood', 'load', `${flood.victims} people × ${flood.perVictimRate} msg/s; one account floods each path in turn (${flood.durationS} s quiet, then ${flood.durationS} s flooded${(flood.rounds ?? 1) > 1 ? `, in ${flood.rounds} rounds that take turns` : ''}); it has ${flood.attackerMessages} messages`);
    for (const { path: floodPath, loops, quiet, flooded, attacker } of flood.paths) {
      const p99Ratio = ratio(Number(flooded.receive.p99), Number(quiet.receive.p99));
      const perS = (n: number) => (attacker ? round(n / (attacker.durationMs / 1000), 0) : 0);
      const answered = attacker ? `; the flood: ${perS(attacker.answered)} answered / ${perS(attacker.rateLimited)} limited / ${perS(attacker.busy)} busy per s` : '';
      // Older figure files have no flood-process CPU.
      const cpu = `; server CPU ${quiet.serverCpuPercent}% → ${flooded.serverCpuPercent}%${attacker?.cpuPercent === undefined ? '' : `, the flood's own process ${attacker.cpuPercent}%`}`;
      add(
        'flood',
        `${floodPath} (${loops} × ${FLOOD_PATH_LOAD[floodPath]}): another user's send→receive p50 / p99, quiet → flooded`,
        `${ms(quiet.receive.p50)} / ${ms(quiet.receive.p99)} → ${ms(flooded.receive.p50)} / ${ms(flooded.receive.p99)} (p99 ${x(p99Ratio)}); ${flooded.refused} of ${flooded.sent} refused${answered}${cpu}`,
        // The control asks the server nothing: what sharing the machine costs, not a target.
        ...(UNLIMITED_PATHS.has(floodPath) ? [] : (['flooded p99 ≤ 2× quiet', judge(applies, p99Ratio <= 2 && flooded.refused === 0)] as const)),
      );
    }
  }

  const f = results.frontend;
  if (f) {
    const full = f.thread >= 10_000 && f.missed >= 10_000;
    add('front end', '/account first-load JS (gzip)', `${kib(f.account.gzipBytes)} in ${f.account.scripts} files (raw ${kib(f.account.rawBytes)})`, '≤ 140 KiB', judge(true, f.account.gzipBytes <= 140 * 1024));
    const prefetched = f.mainPrefetched ? `; +${kib(f.mainPrefetched.gzipBytes)} prefetched once the list is on screen` : '';
    add('front end', '/main first-load JS (gzip)', `${kib(f.main.gzipBytes)} in ${f.main.scripts} files (raw ${kib(f.main.rawBytes)})${prefetched}`, '≤ 180 KiB', judge(true, f.main.gzipBytes <= 180 * 1024));
    if (f.navigation) {
      const floor = f.floor ? `; the floor (Next alone, one page): ${ms(f.floor.medianMs)}` : '';
      const browser = f.browserVersion ? `; Chromium ${f.browserVersion}` : '';
      add('front end', 'navigation → conversation list on screen (first visit)', `${ms(f.navigation.listMs)}${floor}${browser}`, '≤ 300 ms', judge(full, f.navigation.listMs <= 300));
      const warm = f.warmNavigation;
      if (warm) {
        add(
          'front end',
          'navigation → list on screen, visiting again',
          `${ms(warm.medianMs)} (runs ${warm.listMs.join(', ')}); service worker ${warm.controlled ? 'in control' : 'not in control'}, ${warm.cachedScripts} scripts from cache, ${warm.fetchedScripts} fetched`,
        );
      }
      add('front end', 'click → conversation open with its last 50', ms(f.navigation.threadMs), '≤ 100 ms', judge(full, f.navigation.threadMs <= 100));
    }
    if (f.catchUp) {
      const sync = f.catchUp.sync;
      // On screen in both places: the open conversation and its row in the list.
      const both = Math.max(f.catchUp.caughtUpMs, f.catchUp.listUpdatedMs ?? Infinity);
      add(
        'front end',
        `catch-up of ${f.catchUp.missed} missed messages`,
        `${ms(both)} to the last one on screen (thread ${ms(f.catchUp.caughtUpMs)}, list ${ms(f.catchUp.listUpdatedMs ?? Infinity)})` +
          (sync ? `; ${sync.requests} syncs` : '') +
          `; page long tasks ${ms(f.catchUp.longTasks?.totalMs)}` +
          (f.catchUp.serverReplay ? `; server answers the same pages in ${ms(f.catchUp.serverReplay.totalMs)}` : ''),
        '≤ 500 ms',
        judge(full, both <= 500),
      );
    }
    const lighthouse = (page: string, lh: LighthouseResult | null | undefined, target: number) =>
      add(
        'front end',
        `Lighthouse performance ${page} (mobile)`,
        lh ? `${lh.score} (runs ${lh.runs.map((run) => run.score).join(', ')}${lh.failedRuns?.length ? `, ${lh.failedRuns.length} failed` : ''}); FCP ${ms(lh.metrics.fcp)}, LCP ${ms(lh.metrics.lcp)}, TBT ${ms(lh.metrics.tbt)}` : 'not measured (see notes)',
        `≥ ${target}`,
        judge(lh != null, (lh?.score ?? 0) >= target),
      );
    lighthouse('/account', f.lighthouse, 98);
    lighthouse('/main signed in', f.lighthouseMain, 90);
  }
  return rows;
}

export function printTable(rows: Row[], log: (line: string) => void): void {
  const headers: Row = { section: 'section', metric: 'metric', value: 'value', target: 'target', verdict: '' };
  const keys = ['section', 'metric', 'value', 'target', 'verdict'] as const;
  const width = Object.fromEntries(keys.map((key) => [key, Math.max(...[headers, ...rows].map((row) => row[key].length))])) as Record<(typeof keys)[number], number>;
  const line = (row: Row) => `| ${keys.map((key) => row[key].padEnd(width[key])).join(' | ')} |`;
  log(line(headers));
  log(`|${keys.map((key) => '-'.repeat(width[key] + 2)).join('|')}|`);
  for (const row of rows) log(line(row));
}

// `node --import tsx bench/table.ts <results.json>`: the table again, from a results file.
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const results = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as BenchResults;
  printTable(buildTable(results), (line) => console.log(line));
}
