// Catch-up by sequence (docs/DELIVERY.md). Every message, and every change to one, carries the
// signed-in account's `seq`: 1, 2, 3… with no gaps. The client knows a cursor, the highest seq up
// to which it holds every item, and asks the server (`sync`) for everything after it whenever it
// may have missed something: on every (re)connect, and when a live item skips a seq (one was lost
// on the way).
import { SYNC_PAGE_MAX, type Ack, type MessageChange, type MessagePayload, type SyncPayload, type SyncResult } from '@/lib/contract';

/**
 * The first page of a catch-up is small: it answers fast, and says how far behind the client is
 * (its last_seq). The pages after it are the server's largest.
 */
export const FIRST_PAGE_LIMIT = 100;
/** More missed than this (a full page) is far behind: see onFarBehind. */
export const FAR_BEHIND_ITEMS = SYNC_PAGE_MAX;
/** A refused sync is asked again after 1 s, then twice as long each time, up to 30 s. */
const SYNC_RETRY_FIRST_MS = 1_000;
const SYNC_RETRY_MAX_MS = 30_000;

export interface CatchUpOptions {
  sync: (payload: SyncPayload) => Promise<Ack<SyncResult>>;
  isReady: () => boolean;
  /**
   * A page the sync brought, each list oldest first: messages (some may already be held: merge
   * without duplicates), then the changes to apply in their order after them.
   */
  apply: (messages: MessagePayload[], changes: MessageChange[]) => void;
  /**
   * A sync found more than FAR_BEHIND_ITEMS missing (a long disconnection): called once, with the
   * first page, before it is applied, so that what is on screen can jump to the newest at once.
   * The next page is asked for once what it returns has settled: the reads of what is on screen go
   * to the server first, not behind a page of the catch-up (which one account's turn serves first).
   */
  onFarBehind?: () => unknown;
  /** A sync started by a gap (not by the caller) brought `received` > 0 items. */
  onGapFilled?: (received: number) => void;
  /** How long a gap may stay open before a sync fills it (a late live message may close it). */
  gapDelayMs?: number;
}

export interface CatchUp {
  /** A cursor from a snapshot that reflects every message up to it (the conversation list's last_seq). */
  begin(lastSeq: number): void;
  /** An item (message or change) the client now holds: a live event or an ack. */
  note(seq: number): void;
  /** Fetches everything after the cursor (again if asked meanwhile); resolves to how many came. */
  sync(): Promise<number>;
  /** The highest seq up to which every item is held; null before begin(). */
  cursor(): number | null;
  stop(): void;
}

export function createCatchUp({ sync, isReady, apply, onFarBehind, onGapFilled, gapDelayMs = 1_000 }: CatchUpOptions): CatchUp {
  let cursor: number | null = null;
  const above = new Set<number>(); // held seqs beyond the cursor, waiting for the gap below them
  let running: Promise<number> | null = null;
  let again = false;
  let gapTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retries = 0;

  function retryLater(): void {
    if (stopped || retryTimer !== null) return;
    const delay = Math.min(SYNC_RETRY_MAX_MS, SYNC_RETRY_FIRST_MS * 2 ** retries);
    retries += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (isReady()) void runSync();
    }, delay);
  }

  function advance(): void {
    if (cursor === null) return;
    for (const seq of above) if (seq <= cursor) above.delete(seq);
    while (above.delete(cursor + 1)) cursor += 1;
    if (above.size === 0 && gapTimer !== null) {
      clearTimeout(gapTimer);
      gapTimer = null;
    } else if (above.size > 0 && gapTimer === null) {
      gapTimer = setTimeout(() => {
        gapTimer = null;
        void runSync().then((received) => {
          if (received > 0) onGapFilled?.(received);
        });
      }, gapDelayMs);
    }
  }

  /**
   * Page after page until the stream is drained. The next page is asked for before this one is
   * applied: the server reads it while the client merges and renders this one, so a long
   * catch-up costs about one round trip per page, not a round trip plus the merge.
   */
  async function syncOnce(): Promise<number> {
    if (stopped || cursor === null || !isReady()) return 0;
    let received = 0;
    let after = cursor;
    let first = true;
    let pending = sync({ after, limit: FIRST_PAGE_LIMIT });
    for (;;) {
      const ack = await pending;
      if (stopped || cursor === null) return received;
      if (!('data' in ack)) {
        // Refused (busy, too many requests, a failed query) on a live connection: asked again a
        // little later; a connection that went syncs anyway when it is back.
        retryLater();
        return received;
      }
      retries = 0;
      const { messages, changes, through, last_seq: lastSeq, has_more: hasMore } = ack.data;
      if (first && hasMore && lastSeq - after > FAR_BEHIND_ITEMS) {
        await Promise.resolve(onFarBehind?.()).catch(() => undefined);
        if (stopped || cursor === null) return received;
      }
      first = false;
      const more = hasMore && through > after && isReady();
      if (more) {
        after = through;
        pending = sync({ after });
      }
      if (messages.length > 0 || changes.length > 0) apply(messages, changes);
      received += messages.length + changes.length;
      for (const item of [...messages, ...changes]) above.add(item.seq);
      // Everything up to `through` is held now (or was left out on purpose: no longer the account's).
      cursor = Math.max(cursor, through);
      advance();
      if (!more) return received;
    }
  }

  function runSync(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let received = 0;
      do {
        again = false;
        received += await syncOnce();
      } while (again && !stopped);
      return received;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    begin(lastSeq) {
      if (cursor !== null) return;
      cursor = lastSeq;
      advance();
      void runSync();
    },
    note(seq) {
      if (cursor !== null && seq <= cursor) return;
      above.add(seq);
      advance();
    },
    sync: runSync,
    cursor: () => cursor,
    stop() {
      stopped = true;
      if (gapTimer !== null) clearTimeout(gapTimer);
      if (retryTimer !== null) clearTimeout(retryTimer);
      gapTimer = null;
      retryTimer = null;
    },
  };
}
