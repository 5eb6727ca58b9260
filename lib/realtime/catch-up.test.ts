import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountItem, AccountSyncResult, Ack, ConversationMessage, ConversationSummary, ConversationSyncResult, SyncAccountPayload, SyncConversationPayload } from '@/lib/contract';
import { conversationMessage, summary } from '@/lib/testing/fixtures';
import { createCatchUp, FAR_BEHIND_ITEMS, FIRST_PAGE_LIMIT, type CatchUpOptions } from './catch-up';

const C = 1002;
const D = 1003;

/**
 * A server holding, per conversation, messages with seqs 1..latest, and the account's items
 * 1..items; sync_account reports every conversation whose latest is past what the cursor saw.
 */
function server({ latest = {} as Record<number, number>, items = 0, pageSize = 500 } = {}) {
  const fake = {
    latest: { ...latest },
    items,
    accountCalls: [] as SyncAccountPayload[],
    conversationCalls: [] as SyncConversationPayload[],
    /** What the account's cursor had seen of each conversation, by cursor text. */
    seen: new Map<string, Record<number, number>>(),
    syncAccount: vi.fn(async (payload: SyncAccountPayload): Promise<Ack<AccountSyncResult>> => {
      fake.accountCalls.push(payload);
      const from = itemSeqOf(payload.cursor ?? '0');
      const before = fake.seen.get(payload.cursor ?? '') ?? {};
      const moved: ConversationSummary[] = Object.entries(fake.latest)
        .filter(([id, seq]) => seq > (before[Number(id)] ?? 0))
        .map(([id, seq]) => summary(Number(id) - 1000, conversationMessage(seq, { peer: Number(id) - 1000 }), 0, false, { last_seq: seq }));
      const cursor = `${fake.items}.${fake.accountCalls.length}.0.0`;
      fake.seen.set(cursor, { ...fake.latest });
      const newItems: AccountItem[] = [];
      for (let seq = from + 1; seq <= fake.items; seq += 1) newItems.push({ seq, conversation_id: C, kind: 'muted', muted: seq % 2 === 1 });
      return { data: { items: newItems, conversations: moved, removed: [], cursor, has_more: false } };
    }),
    syncConversation: vi.fn(async (payload: SyncConversationPayload): Promise<Ack<ConversationSyncResult>> => {
      fake.conversationCalls.push(payload);
      const last = fake.latest[payload.conversation_id] ?? 0;
      const size = Math.min(pageSize, payload.limit ?? pageSize);
      const seqs: number[] = [];
      for (let seq = payload.after + 1; seq <= last && seqs.length < size; seq += 1) seqs.push(seq);
      const hasMore = payload.after + seqs.length < last;
      const id = payload.conversation_id;
      return {
        data: {
          conversation_id: id,
          messages: seqs.map((seq) => conversationMessage(seq, { peer: id - 1000 })),
          changes: [],
          through: hasMore ? seqs[seqs.length - 1]! : last,
          last_seq: last,
          has_more: hasMore,
          seen: [],
        },
      };
    }),
  };
  return fake;
}
const itemSeqOf = (cursor: string) => Number(cursor.split('.')[0]) || 0;

describe('catch-up by conversation', () => {
  let applied: { conversation: number; seqs: number[] }[];
  let accountPages: AccountSyncResult[];
  const options = (fake: ReturnType<typeof server>, more: Partial<CatchUpOptions> = {}): CatchUpOptions => ({
    syncAccount: fake.syncAccount,
    syncConversation: fake.syncConversation,
    isReady: () => true,
    applyAccount: (page) => void accountPages.push(page),
    applyConversation: (conversation, messages: ConversationMessage[]) => void applied.push({ conversation, seqs: messages.map((message) => message.seq) }),
    onFarBehind: () => false,
    ...more,
  });
  const seqsOf = (conversation: number) => applied.filter((page) => page.conversation === conversation).flatMap((page) => page.seqs);

  beforeEach(() => {
    applied = [];
    accountPages = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => vi.useRealTimers());

  it('asks the account what moved since the list’s cursor, then each held conversation that moved for what came after it', async () => {
    const fake = server({ latest: { [C]: 12, [D]: 40 } });
    fake.seen.set('0.0.0.0', { [C]: 5, [D]: 40 });
    const catchUp = createCatchUp(options(fake));
    catchUp.hold(C, 5);
    catchUp.hold(D, 40);
    catchUp.begin('0.0.0.0');
    await vi.waitFor(() => expect(catchUp.cursor(C)).toBe(12));
    expect(fake.accountCalls).toEqual([{ cursor: '0.0.0.0' }]);
    // Only the conversation that moved past what is held; a small first page.
    expect(fake.conversationCalls).toEqual([{ conversation_id: C, after: 5, limit: FIRST_PAGE_LIMIT }]);
    expect(seqsOf(C)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(accountPages[0]!.conversations.map((row) => row.conversation_id)).toEqual([C]);
  });

  it('pages through a held conversation, a small first page then the largest', async () => {
    const fake = server({ latest: { [C]: 1_203 } });
    const catchUp = createCatchUp(options(fake));
    catchUp.hold(C, 100);
    catchUp.begin('0.0.0.0');
    await vi.waitFor(() => expect(catchUp.cursor(C)).toBe(1_203));
    expect(fake.conversationCalls.map((call) => [call.after, call.limit])).toEqual([
      [100, FIRST_PAGE_LIMIT],
      [200, undefined],
      [700, undefined],
      [1_200, undefined],
    ]);
    expect(seqsOf(C)).toEqual(Array.from({ length: 1_103 }, (_, i) => 101 + i));
  });

  it('leaves a conversation it holds no messages of to its row: nothing is fetched for it', async () => {
    const fake = server({ latest: { [C]: 9 } });
    const catchUp = createCatchUp(options(fake));
    catchUp.begin('0.0.0.0');
    await vi.waitFor(() => expect(fake.accountCalls).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(accountPages[0]!.conversations.map((row) => row.conversation_id)).toEqual([C]);
    expect(fake.conversationCalls).toEqual([]);
    expect(catchUp.cursor(C)).toBeNull();
  });

  it('after a reconnect it asks every held conversation, moved or not (a receipt moves no seq)', async () => {
    const fake = server({ latest: { [C]: 5, [D]: 7 } });
    fake.seen.set('0.0.0.0', { [C]: 5, [D]: 7 });
    const catchUp = createCatchUp(options(fake));
    catchUp.hold(C, 5);
    catchUp.hold(D, 7);
    catchUp.begin('0.0.0.0');
    await catchUp.sync();
    expect(fake.conversationCalls).toEqual([]);
    await catchUp.sync({ everyHeld: true });
    expect(fake.conversationCalls.map((call) => [call.conversation_id, call.after])).toEqual([
      [C, 5],
      [D, 7],
    ]);
  });

  it('applies each account item once, whether it came live or in the account’s answer', async () => {
    const fake = server({ items: 3 });
    const catchUp = createCatchUp(options(fake, { isReady: () => false }));
    catchUp.begin('1.0.0.0');
    // Item 1 is before the list's cursor; 2 came live.
    expect(catchUp.noteItem(1)).toBe(false);
    expect(catchUp.noteItem(2)).toBe(true);
    expect(catchUp.noteItem(2)).toBe(false);
    const ready = createCatchUp(options(fake));
    ready.begin('1.0.0.0');
    ready.noteItem(2);
    await vi.waitFor(() => expect(accountPages).toHaveLength(1));
    expect(accountPages[0]!.items.map((item) => item.seq)).toEqual([3]);
    // Everything up to the answer's cursor is held now.
    expect(ready.noteItem(3)).toBe(false);
    catchUp.stop();
  });

  it('moves a held conversation’s cursor over live items only while they are contiguous', () => {
    const fake = server();
    const catchUp = createCatchUp(options(fake, { isReady: () => false }));
    catchUp.note(C, 4); // not held: nothing to track
    catchUp.hold(C, 3);
    expect(catchUp.cursor(C)).toBe(3);
    catchUp.note(C, 5);
    expect(catchUp.cursor(C)).toBe(3);
    catchUp.note(C, 4);
    expect(catchUp.cursor(C)).toBe(5);
    catchUp.note(C, 2);
    // A newer page of the thread holds it from further on.
    catchUp.hold(C, 9);
    expect(catchUp.cursor(C)).toBe(9);
    catchUp.release(C);
    expect(catchUp.cursor(C)).toBeNull();
  });

  it('a gap that stays open for a second is filled by a sync; one closed in time is not', async () => {
    const fake = server({ latest: { [C]: 4 } });
    const catchUp = createCatchUp(options(fake));
    catchUp.hold(C, 4);
    catchUp.begin('0.0.0.0');
    await catchUp.sync();
    fake.accountCalls.length = 0;
    fake.conversationCalls.length = 0;
    applied = [];

    catchUp.note(C, 6); // 5 is late…
    await vi.advanceTimersByTimeAsync(500);
    catchUp.note(C, 5); // …and arrives: no sync
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fake.accountCalls).toEqual([]);
    expect(catchUp.cursor(C)).toBe(6);

    fake.latest[C] = 8;
    catchUp.note(C, 8); // 7 was lost on the way
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.conversationCalls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(catchUp.cursor(C)).toBe(8));
    expect(fake.conversationCalls).toEqual([{ conversation_id: C, after: 6, limit: FIRST_PAGE_LIMIT }]);
    expect(seqsOf(C)).toEqual([7, 8]);
  });

  it('an account item that skips a seq is a gap too: the account’s answer fills it', async () => {
    const fake = server({ items: 1 });
    const catchUp = createCatchUp(options(fake));
    catchUp.begin('1.0.0.0');
    await catchUp.sync();
    fake.accountCalls.length = 0;
    fake.items = 3;
    expect(catchUp.noteItem(3)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(fake.accountCalls).toHaveLength(1));
    expect(accountPages.at(-1)!.items.map((item) => item.seq)).toEqual([2]);
  });

  it('does nothing while not connected, and runs once more when asked during a sync', async () => {
    let ready = false;
    const fake = server({ latest: { [C]: 3 } });
    const catchUp = createCatchUp(options(fake, { isReady: () => ready }));
    catchUp.hold(C, 0);
    catchUp.begin('0.0.0.0');
    await catchUp.sync();
    expect(fake.accountCalls).toEqual([]);
    ready = true;
    const first = catchUp.sync();
    const second = catchUp.sync();
    expect(await first).toBe(3);
    expect(await second).toBe(3);
    expect(fake.accountCalls).toHaveLength(2);
    expect(fake.conversationCalls.map((call) => call.after)).toEqual([0]);
  });

  it('a refused account answer is asked again a little later, and again, until it answers', async () => {
    const fake = server({ latest: { [C]: 30 } });
    let refusals = 2;
    const syncAccount = vi.fn(async (payload: SyncAccountPayload): Promise<Ack<AccountSyncResult>> =>
      refusals-- > 0 ? { error: { msg: 'Too many requests, slow down.' } } : fake.syncAccount(payload),
    );
    const catchUp = createCatchUp(options(fake, { syncAccount }));
    catchUp.hold(C, 10);
    catchUp.begin('0.0.0.0');
    await vi.advanceTimersByTimeAsync(0);
    expect(syncAccount).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(syncAccount).toHaveBeenCalledTimes(2);
    expect(catchUp.cursor(C)).toBe(10);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(syncAccount).toHaveBeenCalledTimes(3);
    await vi.waitFor(() => expect(catchUp.cursor(C)).toBe(30));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(syncAccount).toHaveBeenCalledTimes(3);
    catchUp.stop();
  });

  it('a failed conversation sync leaves its cursor where it was; one no longer the user’s stops being caught up', async () => {
    const fake = server({ latest: { [C]: 9, [D]: 9 } });
    const syncConversation = vi.fn(async (payload: SyncConversationPayload): Promise<Ack<ConversationSyncResult>> =>
      payload.conversation_id === C ? { error: { msg: 'operation has timed out' } } : { error: { non_field_errors: ['conversation_id: Conversation not found.'] } },
    );
    const catchUp = createCatchUp(options(fake, { syncConversation }));
    catchUp.hold(C, 7);
    catchUp.begin('0.0.0.0');
    await vi.waitFor(() => expect(syncConversation).toHaveBeenCalled());
    await vi.advanceTimersByTimeAsync(0);
    expect(catchUp.cursor(C)).toBe(7);
    catchUp.stop();

    const removed = createCatchUp(options(fake, { syncConversation }));
    removed.hold(D, 7);
    removed.begin('0.0.0.0');
    await vi.waitFor(() => expect(removed.cursor(D)).toBeNull());
    removed.stop();
  });

  it('far behind in a held conversation, it asks the session first: handled, nothing is paged; not, it pages through', async () => {
    for (const [missing, handled, asked] of [
      [FAR_BEHIND_ITEMS + 1, true, 1],
      [FAR_BEHIND_ITEMS + 1, false, 1],
      [FAR_BEHIND_ITEMS, true, 0],
    ] as const) {
      applied = [];
      const fake = server({ latest: { [C]: 100 + missing } });
      const onFarBehind = vi.fn(async () => handled);
      const catchUp = createCatchUp(options(fake, { onFarBehind }));
      catchUp.hold(C, 100);
      catchUp.begin('0.0.0.0');
      await vi.waitFor(() => expect(fake.conversationCalls.length).toBeGreaterThan(0));
      await catchUp.sync();
      expect(onFarBehind, `${missing} missing`).toHaveBeenCalledTimes(asked);
      const paged = !(asked && handled);
      expect(seqsOf(C).length, `${missing} missing, handled ${handled}`).toBe(paged ? missing : 0);
      catchUp.stop();
    }
  });
});
