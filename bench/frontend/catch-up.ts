// The catch-up part of the front-end bench (./index.ts): with a conversation open, the browser goes
// offline, missed messages are written while it is away, and it comes back online; measured until
// the last of them is on screen, with the page's sync traffic and the server's share.
import type { BrowserContext, Page } from 'playwright';
import type { BenchUser } from '../clients';
import { delay, round } from '../stats';
import { marks, replaySync, syncTracer, waitForMark, type SyncTrace } from './page-clock';

export interface CatchUpResult {
  missed: number;
  caughtUpMs: number;
  reconnectedMs: number | null;
  listUpdatedMs: number | null;
  /** From the WebSocket frames as the page saw them (its main thread handles both). */
  sync: SyncTrace | null;
  /** The page's long tasks (> 50 ms) during the catch-up: main-thread time. */
  longTasks: { count: number; totalMs: number; longestMs: number };
  /** The same sync pages asked again afterwards by a Node client: the server's share. */
  serverReplay: { requests: number; totalMs: number; slowestMs: number } | null;
}

/** On the open thread: offline, `restart` writes the missed messages, online, until the last one is on screen. */
export async function measureCatchUp(
  page: Page,
  context: BrowserContext,
  options: { url: string; me: BenchUser; peer: BenchUser; missed: number; restart: () => Promise<void>; notes: string[]; log: (line: string) => void },
): Promise<CatchUpResult> {
  const { url, me, peer, missed, notes, log } = options;
  await delay(1000);
  await context.setOffline(true);
  await page.waitForSelector('[role="status"][data-state]:not([data-state="connected"])', { timeout: 15_000 });
  await options.restart();
  const trace = syncTracer(page);
  await page.evaluate(() => {
    (window as unknown as { __bench: { catchFrom?: number } }).__bench.catchFrom = performance.now();
  });
  await context.setOffline(false);
  try {
    await waitForMark(page, 'caught');
  } catch {
    notes.push(`catch-up: the last missed message was not on screen within 60 s; the thread showed ${await threadState(page)}`);
  }
  try {
    await waitForMark(page, 'listUpdated', 10_000);
  } catch {
    notes.push(`catch-up: the list's row did not show the last missed message within 10 s of the thread`);
  }
  const b = await marks(page);
  const since = (at: number | undefined) => (at ? round(at - b.catchFrom!, 1) : null);
  const serverReplay = await replaySync(url, me, peer.id, missed).catch(() => null);
  const result: CatchUpResult = {
    missed,
    caughtUpMs: since(b.caught) ?? Infinity,
    reconnectedMs: since(b.reconnected),
    listUpdatedMs: since(b.listUpdated),
    sync: trace(),
    longTasks: { count: b.longTasks ?? 0, totalMs: round(b.longTaskMs ?? 0, 1), longestMs: round(b.longestTask ?? 0, 1) },
    serverReplay,
  };
  log(`  catch-up of ${missed}: reconnected after ${result.reconnectedMs} ms, last message on screen after ${result.caughtUpMs} ms, list updated after ${result.listUpdatedMs} ms`);
  if (result.sync) {
    const t = result.sync;
    log(`  sync as the page saw it: ${t.requests} requests, ${t.serverMs} ms request → ack handled (slowest ${t.slowestMs} ms, ${round(t.ackBytes / 1048576, 1)} MiB), ${t.clientBetweenMs} ms between them`);
  }
  log(`  page long tasks during the catch-up: ${result.longTasks.count}, ${result.longTasks.totalMs} ms in all, longest ${result.longTasks.longestMs} ms`);
  if (serverReplay) log(`  the same ${serverReplay.requests} sync pages from a Node client: ${serverReplay.totalMs} ms in all (slowest ${serverReplay.slowestMs} ms)`);
  return result;
}

/** Where the open thread's list stands: its scroll, the messages it renders, and whether it offers the jump to the newest. */
function threadState(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const scroller = document.querySelector('section[aria-label^="Conversation with"] [data-testid="virtuoso-scroller"]');
      const items = document.querySelectorAll('section[aria-label^="Conversation with"] [data-item-index]');
      const last = items[items.length - 1]?.textContent?.slice(0, 60) ?? 'nothing';
      const jump = document.querySelector('section[aria-label^="Conversation with"] button[aria-label^="Jump"]') !== null;
      const scroll = scroller ? `scrollTop ${Math.round(scroller.scrollTop)} of ${scroller.scrollHeight - scroller.clientHeight}` : 'no scroller';
      return `${items.length} rendered, the last "${last}"; ${scroll}; jump button ${jump ? 'shown' : 'not shown'}`;
    })
    .catch((error: unknown) => `(unreadable: ${String(error).slice(0, 100)})`);
}
