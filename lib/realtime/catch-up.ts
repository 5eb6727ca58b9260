// Catch-up by conversation (socket protocol 2: docs/API.md, `sync_account` and
// `sync_conversation`; docs/design/conversations.md 3.5). Two kinds of stream, each numbered 1, 2,
// 3… without gaps: the account's own items (its reads, its deletions for itself, its mutes), and
// each conversation's messages and changes. The client keeps a cursor for the account (from the
// list it read) and one per conversation whose messages it holds (a thread it loaded: from the
// seq its newest page was read at). Whenever it may have missed something (every (re)connect, a
// live item that skips a seq), it asks the account what moved since its cursor, then each held
// conversation that moved past what it holds for what came after. A conversation it holds no
// messages of needs nothing more than its row, which the account's answer brings.
import {
  SYNC_PAGE_MAX,
  type AccountItem,
  type AccountSyncResult,
  type Ack,
  type ConversationChange,
  type ConversationMessage,
  type ConversationSyncResult,
  type SyncAccountPayload,
  type SyncConversationPayload,
} from '@/lib/contract';

/**
 * The first page of a conversation's catch-up is small: it answers fast, and says how far behind
 * the thread is (its last_seq). The pages after it are the server's largest.
 */
export const FIRST_PAGE_LIMIT = 100;
/** More missed than this in one conversation (a full page) is far behind: see onFarBehind. */
export const FAR_BEHIND_ITEMS = SYNC_PAGE_MAX;
/** A refused sync is asked again after 1 s, then twice as long each time, up to 30 s. */
const SYNC_RETRY_FIRST_MS = 1_000;
const SYNC_RETRY_MAX_MS = 30_000;

export interface CatchUpOptions {
  syncAccount: (payload: SyncAccountPayload) => Promise<Ack<AccountSyncResult>>;
  syncConversation: (payload: SyncConversationPayload) => Promise<Ack<ConversationSyncResult>>;
  isReady: () => boolean;
  /** A page of the account's answer: its rows that moved, and those gone (its items go to applyItem). */
  applyAccount: (page: AccountSyncResult) => void;
  /**
   * An item of the account's own stream, each once and strictly in seq order (one that arrives
   * past a gap waits for it: a read's `unread_count` applied after a later read's would put an old
   * badge back, and no row would come to correct it, a read moving no conversation).
   */
  applyItem: (item: AccountItem) => void;
  /**
   * A page of a held conversation's stream, each list oldest first: messages (some may already be
   * held: merge without duplicates), then the changes to apply in their order after them; and
   * where the other members' receipts stand now.
   */
  applyConversation: (conversationId: number, messages: ConversationMessage[], changes: ConversationChange[], seen: ConversationSyncResult['seen']) => void;
  /**
   * A held conversation is more than FAR_BEHIND_ITEMS behind (a long disconnection): rather than
   * page through all it missed, the session may show its newest page (which holds it again from
   * there) or let the thread go (`release`), and resolve true: its catch-up ends there. False (or
   * a failure): the pages follow as usual.
   */
  onFarBehind: (conversationId: number) => boolean | Promise<boolean>;
  /** How long a gap may stay open before a sync fills it (a late live item may close it). */
  gapDelayMs?: number;
}

export interface CatchUp {
  /** The account cursor read before the list (its `account_cursor`): everything up to it is in the list. */
  begin(accountCursor: string): void;
  /** A thread holds the conversation up to `seq` (its newest page's last_seq): caught up from there on. */
  hold(conversationId: number, seq: number): void;
  /** The thread went: its conversation is no longer caught up message by message. */
  release(conversationId: number): void;
  /** A live item (message or change) or an ack of a held conversation; a skipped seq opens a gap. */
  note(conversationId: number, seq: number): void;
  /** An account item, live or an ack: applied (applyItem) once, in seq order, the gap before it filled first. */
  receiveItem(item: AccountItem): void;
  /**
   * Fetches everything after the cursors (again if asked meanwhile); resolves to how many messages
   * and changes came. `everyHeld` (a reconnect): every held conversation is asked, moved or not,
   * for the receipts a read moved meanwhile (a read moves no seq, so nothing else would say).
   */
  sync(options?: { everyHeld?: boolean }): Promise<number>;
  /** The highest seq up to which the conversation's items are held; null when it is not held. */
  cursor(conversationId: number): number | null;
  stop(): void;
}

/** A stream's position: every seq up to `cursor` is held, and those held beyond it wait for the gap below them. */
interface Stream {
  cursor: number;
  above: Set<number>;
}

/** Notes `seq` as held. */
function noteIn(stream: Stream, seq: number): void {
  if (seq <= stream.cursor || stream.above.has(seq)) return;
  stream.above.add(seq);
  advanceTo(stream, stream.cursor);
}

/** Everything up to `seq` is held: the cursor moves there, and over what was held beyond it. */
function advanceTo(stream: Stream, seq: number): void {
  stream.cursor = Math.max(stream.cursor, seq);
  for (const held of stream.above) if (held <= stream.cursor) stream.above.delete(held);
  while (stream.above.delete(stream.cursor + 1)) stream.cursor += 1;
}

/** The account's item seq an account cursor stands at (lib/contract/schemas.ts, ACCOUNT_CURSOR: its first part). */
const itemSeqOf = (cursor: string) => Number(cursor.split('.', 1)[0]) || 0;

export function createCatchUp({ syncAccount, syncConversation, isReady, applyAccount, applyItem, applyConversation, onFarBehind, gapDelayMs = 1_000 }: CatchUpOptions): CatchUp {
  let accountCursor: string | null = null;
  // The account's items: applied up to `applied`; those past a gap wait here by seq.
  let applied = 0;
  const waiting = new Map<number, AccountItem>();
  const conversations = new Map<number, Stream>();
  // The newest seq heard of each conversation not held (a row's last_seq, a live item): a thread
  // that starts holding it below that is caught up at once (its page was read before them).
  const heads = new Map<number, number>();
  // Held conversations to ask whatever the account says (a thread that holds one behind its head).
  const pending = new Set<number>();
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
      if (isReady()) void runSync({ everyHeld: true });
    }, delay);
  }

  const hasGap = () => waiting.size > 0 || [...conversations.values()].some((stream) => stream.above.size > 0);

  /** An item of the account's stream: applied once, in order (it waits while a seq before it is missing). */
  function takeItem(item: AccountItem): void {
    if (item.seq > applied) waiting.set(item.seq, item);
    applyInOrder();
  }

  function applyInOrder(): void {
    for (let next = waiting.get(applied + 1); next; next = waiting.get(applied + 1)) {
      waiting.delete(next.seq);
      applied = next.seq;
      applyItem(next);
    }
  }

  /** The newest seq heard of a conversation: a held one behind it is to be asked. */
  function heard(conversationId: number, seq: number): void {
    const stream = conversations.get(conversationId);
    if (stream) {
      if (seq > stream.cursor) pending.add(conversationId);
    } else {
      heads.set(conversationId, Math.max(heads.get(conversationId) ?? 0, seq));
    }
  }

  /** A gap opened: a sync fills it after gapDelayMs unless it closes by itself meanwhile. */
  function watchGaps(): void {
    if (!hasGap()) {
      if (gapTimer !== null) clearTimeout(gapTimer);
      gapTimer = null;
    } else if (gapTimer === null && accountCursor !== null) {
      gapTimer = setTimeout(() => {
        gapTimer = null;
        if (hasGap()) void runSync();
      }, gapDelayMs);
    }
  }

  /** The account's answer, page after page; false when it was refused (asked again later). */
  async function syncAccountPages(behind: Set<number>): Promise<boolean> {
    while (accountCursor !== null) {
      const ack = await syncAccount({ cursor: accountCursor });
      if (stopped) return false;
      if (!('data' in ack)) return false;
      const page = ack.data;
      for (const item of page.items) takeItem(item);
      applyAccount(page);
      for (const summary of page.conversations) {
        const stream = conversations.get(summary.conversation_id);
        if (stream && summary.last_seq > stream.cursor) behind.add(summary.conversation_id);
        else if (!stream) heard(summary.conversation_id, summary.last_seq);
      }
      // A conversation taken off the list (a block, a deactivation) stays held: the thread is still
      // there and its conversation still answers, and a block lifted brings the row back.
      accountCursor = page.cursor;
      if (!page.has_more) return true;
    }
    return true;
  }

  /** One conversation's stream after its cursor, page after page; null when refused, else how many items came. */
  async function syncConversationPages(conversationId: number): Promise<number | null> {
    let received = 0;
    let first = true;
    for (;;) {
      const stream = conversations.get(conversationId);
      if (!stream || stopped) return received;
      const after = stream.cursor;
      const ack = await syncConversation({ conversation_id: conversationId, after, ...(first ? { limit: FIRST_PAGE_LIMIT } : {}) });
      if (stopped || conversations.get(conversationId) !== stream) return received;
      if (!('data' in ack)) {
        // No longer theirs (a conversation they were removed from, or gone): nothing more to catch up.
        if ('non_field_errors' in ack.error && ack.error.non_field_errors.some((line) => line.startsWith('conversation_id:'))) {
          conversations.delete(conversationId);
          return received;
        }
        return null;
      }
      const { messages, changes, through, last_seq: lastSeq, has_more: hasMore } = ack.data;
      if (first && hasMore && lastSeq - after > FAR_BEHIND_ITEMS) {
        const handled = await Promise.resolve(onFarBehind(conversationId)).catch(() => false);
        if (handled || stopped) return received;
      }
      first = false;
      applyConversation(conversationId, messages, changes, ack.data.seen);
      received += messages.length + changes.length;
      for (const item of [...messages, ...changes]) noteIn(stream, item.seq);
      // Everything up to `through` is held now (or was left out on purpose: not the caller's to see).
      advanceTo(stream, through);
      if (!hasMore || through <= after) return received;
    }
  }

  async function syncOnce(everyHeld: boolean): Promise<number> {
    if (stopped || !isReady()) return 0;
    const behind = new Set<number>();
    if (!(await syncAccountPages(behind))) {
      retryLater();
      return 0;
    }
    // And any held conversation with a gap its live items left, or behind what was heard of it (after a reconnect, every one).
    for (const [id, stream] of conversations) if (everyHeld || stream.above.size > 0 || pending.has(id)) behind.add(id);
    pending.clear();
    let received = 0;
    for (const id of behind) {
      const count = await syncConversationPages(id);
      if (count === null) {
        retryLater();
        return received;
      }
      received += count;
    }
    retries = 0;
    watchGaps();
    return received;
  }

  let everyHeldAgain = false;
  function runSync({ everyHeld = false }: { everyHeld?: boolean } = {}): Promise<number> {
    if (running) {
      again = true;
      everyHeldAgain ||= everyHeld;
      return running;
    }
    everyHeldAgain = everyHeld;
    running = (async () => {
      let received = 0;
      do {
        again = false;
        const all = everyHeldAgain;
        everyHeldAgain = false;
        received += await syncOnce(all);
      } while (again && !stopped);
      return received;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    begin(cursor) {
      if (accountCursor !== null) return;
      accountCursor = cursor;
      // Everything up to the cursor is in the list; what came live past it waits in order.
      applied = Math.max(applied, itemSeqOf(cursor));
      for (const seq of waiting.keys()) if (seq <= applied) waiting.delete(seq);
      applyInOrder();
      void runSync();
    },
    hold(conversationId, seq) {
      const stream = conversations.get(conversationId);
      if (stream) advanceTo(stream, seq);
      else conversations.set(conversationId, { cursor: seq, above: new Set() });
      const head = heads.get(conversationId);
      heads.delete(conversationId);
      // Something newer was heard of it than the page holds (it answered after them): caught up now.
      if (head !== undefined && head > (conversations.get(conversationId)?.cursor ?? 0)) {
        pending.add(conversationId);
        if (accountCursor !== null && isReady()) void runSync();
      }
      watchGaps();
    },
    release(conversationId) {
      conversations.delete(conversationId);
      watchGaps();
    },
    note(conversationId, seq) {
      const stream = conversations.get(conversationId);
      if (!stream) return heard(conversationId, seq);
      noteIn(stream, seq);
      watchGaps();
    },
    receiveItem(item) {
      takeItem(item);
      watchGaps();
    },
    sync: runSync,
    cursor: (conversationId) => conversations.get(conversationId)?.cursor ?? null,
    stop() {
      stopped = true;
      if (gapTimer !== null) clearTimeout(gapTimer);
      if (retryTimer !== null) clearTimeout(retryTimer);
      gapTimer = null;
      retryTimer = null;
    },
  };
}
