// Timings on the page's own clock: an init script checks on every animation frame when things
// are on screen (the conversation list, the thread's newest message, the last missed message) and
// records the page's long tasks; the catch-up requests are traced from the page's WebSocket frames.
import type { Page } from 'playwright';
import type { ConversationSyncResult } from '../../lib/contract';
import type { SyncConversationPayload } from '../../lib/contract/schemas';
import { connectOne, directConversation, type BenchUser } from '../clients';
import { round } from '../stats';

export interface BenchMarks {
  list?: number;
  clickAt?: number;
  thread?: number;
  catchFrom?: number;
  reconnected?: number;
  caught?: number;
  listUpdated?: number;
  longTasks?: number;
  longTaskMs?: number;
  longestTask?: number;
}

/** The marks the init script has recorded so far. */
export const marks = (page: Page) => page.evaluate(() => (window as unknown as { __bench: BenchMarks }).__bench);

/** Resolves once the init script has recorded `mark`. */
export const waitForMark = (page: Page, mark: keyof BenchMarks, timeout = 60_000) =>
  page.waitForFunction((name) => (window as unknown as { __bench?: BenchMarks }).__bench?.[name as keyof BenchMarks], mark, { timeout });

/**
 * Runs in the page before its own scripts: records, on the page's clock, when things are on
 * screen (checked every animation frame). A string, not a function: tsx would wrap a function's
 * inner names in a helper that the page does not have.
 */
export function benchInitScript(init: { peerName: string; lastText: string; missedLast: string; minRows: number }): string {
  return `(() => {
    const init = ${JSON.stringify(init)};
    window.__bench = {};
    const check = () => {
      const b = window.__bench;
      const list = document.querySelector('nav[aria-label="Messages"]');
      if (!b.list && list && list.querySelectorAll('[data-row]').length >= init.minRows && list.textContent.includes(init.peerName)) {
        b.list = performance.now();
        performance.mark('bench:list');
      }
      const thread = document.querySelector('section[aria-label="Conversation with ' + init.peerName + '"]');
      if (b.clickAt && !b.thread && thread && thread.textContent.includes(init.lastText)) b.thread = performance.now();
      if (b.catchFrom) {
        const status = document.querySelector('[role="status"][data-state]');
        if (!b.reconnected && status && status.getAttribute('data-state') === 'connected') b.reconnected = performance.now();
        if (!b.caught && thread && thread.textContent.includes(init.missedLast)) b.caught = performance.now();
        if (!b.listUpdated && list && list.textContent.includes(init.missedLast)) b.listUpdated = performance.now();
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
    // The page's main thread: long tasks (> 50 ms) from the moment the catch-up starts.
    try {
      new PerformanceObserver((list) => {
        const b = window.__bench;
        for (const entry of list.getEntries()) {
          if (!b.catchFrom || entry.startTime < b.catchFrom) continue;
          b.longTaskMs = (b.longTaskMs || 0) + entry.duration;
          b.longTasks = (b.longTasks || 0) + 1;
          b.longestTask = Math.max(b.longestTask || 0, entry.duration);
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch (error) {}
    document.addEventListener('click', () => { if (!window.__bench.clickAt) window.__bench.clickAt = performance.now(); }, true);
  })();`;
}

export interface SyncTrace {
  requests: number;
  /**
   * Sum over sync requests of request sent → ack received, as the page's WebSocket saw them:
   * the renderer reports a frame when its main thread handles it, so a busy page counts here too.
   */
  serverMs: number;
  /** Sum of ack handled → next request sent (the client merging a page). */
  clientBetweenMs: number;
  /** Bytes of the acks (uncompressed frames). */
  ackBytes: number;
  /** The slowest single request → ack. */
  slowestMs: number;
}

/**
 * Watches the page's WebSockets for protocol 2's catch-up requests (42<id>["sync_account",…] and
 * 42<id>["sync_conversation",…]) and their acks (43<id>[…]).
 */
export function syncTracer(page: Page) {
  const sent = new Map<string, number>();
  const pairs: { sentAt: number; ackAt: number; bytes: number }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      const match = /^42(\d+)\["sync_(?:account|conversation)"/.exec(text);
      if (match) sent.set(match[1]!, performance.now());
    });
    ws.on('framereceived', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      const match = /^43(\d+)/.exec(text);
      const sentAt = match ? sent.get(match[1]!) : undefined;
      if (match && sentAt !== undefined) {
        sent.delete(match[1]!);
        pairs.push({ sentAt, ackAt: performance.now(), bytes: text.length });
      }
    });
  });
  return (): SyncTrace | null => {
    if (pairs.length === 0) return null;
    pairs.sort((a, b) => a.sentAt - b.sentAt);
    let clientBetweenMs = 0;
    for (let i = 1; i < pairs.length; i++) clientBetweenMs += Math.max(0, pairs[i]!.sentAt - pairs[i - 1]!.ackAt);
    return {
      requests: pairs.length,
      serverMs: round(pairs.reduce((sum, pair) => sum + pair.ackAt - pair.sentAt, 0), 1),
      clientBetweenMs: round(clientBetweenMs, 1),
      ackBytes: pairs.reduce((sum, pair) => sum + pair.bytes, 0),
      slowestMs: round(Math.max(...pairs.map((pair) => pair.ackAt - pair.sentAt)), 1),
    };
  };
}

/**
 * Asks the server for the last `missed` messages of the conversation with `peerId` again, page by
 * page (`sync_conversation`, as the page's catch-up reads them), from Node: its share of the catch-up.
 */
export async function replaySync(url: string, user: BenchUser, peerId: number, missed: number): Promise<{ requests: number; totalMs: number; slowestMs: number }> {
  const conversationId = await directConversation(url, user, peerId);
  const socket = await connectOne(url, user, undefined, 30_000);
  try {
    const page = async (payload: Omit<SyncConversationPayload, 'conversation_id'>) =>
      ((await socket.emitWithAck('sync_conversation', { conversation_id: conversationId, ...payload })) as { data: ConversationSyncResult }).data;
    const probe = await page({ after: 0, limit: 1 });
    let after = probe.last_seq - missed;
    const times: number[] = [];
    for (;;) {
      const started = performance.now();
      const ack = await page({ after });
      times.push(performance.now() - started);
      if (!ack.has_more) break;
      after = ack.through;
    }
    return { requests: times.length, totalMs: round(times.reduce((a, b) => a + b, 0), 1), slowestMs: round(Math.max(...times), 1) };
  } finally {
    socket.close();
  }
}
