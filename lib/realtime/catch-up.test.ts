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
  let items: number[];
  const options = (fake: ReturnType<typeof server>, more: Partial<CatchUpOptions> = {}): CatchUpOptions => ({
    syncAccount: fake.syncAccount,
    syncConversation: fake.syncConversation,
    isReady: () => true,
    applyAccount: (page) => void accountPages.push(page),
    applyItem: (item) => void items.push(item.seq),
    applyConversation: (conversation, messages: ConversationMessage[]) => void applied.push({ conversation, seqs: messages.map((message) => message.seq) }),
    onFarBehind: () => false,
    ...more,
  });
  const seqsOf = (conversation: number) => applied.filter((page) => page.conversation === conversation).flatMap((page) => page.seqs);

  beforeEach(() => {
    applied = [];
    accountPages = [];
    items = [];
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

  it('applies each account item once and in order, whether it came live or in the account’s answer', async () => {
    const muted = (seq: number): AccountItem => ({ seq, conversation_id: C, kind: 'muted', muted: true });
    const fake = server({ items: 4 });
    const catchUp = createCatchUp(options(fake, { isReady: () => false }));
    catchUp.begin('1.0.0.0');
    // Item 1 is before the list's cursor; 2 came live, 4 too, past a gap: it waits for 3.
    catchUp.receiveItem(muted(1));
    catchUp.receiveItem(muted(2));
    catchUp.receiveItem(muted(2));
    catchUp.receiveItem(muted(4));
    expect(items).toEqual([2]);
    catchUp.receiveItem(muted(3));
    expect(items).toEqual([2, 3, 4]);
    catchUp.stop();

    // The account's answer brings what was missed; what came live meanwhile is not applied twice.
    items = [];
    const ready = createCatchUp(options(fake));
    ready.receiveItem(muted(3));
    ready.begin('1.0.0.0');
    await vi.waitFor(() => expect(accountPages).toHaveLength(1));
    expect(items).toEqual([2, 3, 4]);
    ready.stop();
  });

  it('a thread whose page answers after newer items were heard of its conversation is caught up at once', async () => {
    const fake = server({ latest: { [C]: 9 } });
    const catchUp = createCatchUp(options(fake));
    catchUp.begin('0.0.0.0');
    await catchUp.sync(); // the account's answer named C at 9; no thread held it
    expect(fake.conversationCalls).toEqual([]);
    catchUp.hold(C, 6); // its first page, read before 7…9
    await vi.waitFor(() => expect(catchUp.cursor(C)).toBe(9));
    expect(fake.conversationCalls.map((call) => call.after)).toEqual([6]);
    // A live item of a conversation not held yet counts the same way.
    fake.latest[D] = 4;
    catchUp.note(D, 4);
    catchUp.hold(D, 3);
    await vi.waitFor(() => expect(catchUp.cursor(D)).toBe(4));
    // Held at its head: nothing to ask.
    const asked = fake.conversationCalls.length;
    catchUp.note(1004, 2);
    catchUp.hold(1004, 2);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.conversationCalls).toHaveLength(asked);
  });

  it('a conversation taken off the list (a block) stays held: its thread is caught up again once it is back', async () => {
    const fake = server({ latest: { [C]: 3 } });
    const syncAccount = vi.fn(async (payload: SyncAccountPayload): Promise<Ack<AccountSyncResult>> => {
      const answer = await fake.syncAccount(payload);
      return 'data' in answer ? { data: { ...answer.data, conversations: [], removed: [C] } } : answer;
    });
    const catchUp = createCatchUp(options(fake, { syncAccount }));
    catchUp.hold(C, 3);
    catchUp.begin('0.0.0.0');
    await catchUp.sync();
    expect(catchUp.cursor(C)).toBe(3);
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

  it('an account item that skips a seq is a gap too: the account’s answer fills it, and both apply in order', async () => {
    const fake = server({ items: 1 });
    const catchUp = createCatchUp(options(fake));
    catchUp.begin('1.0.0.0');
    await catchUp.sync();
    fake.accountCalls.length = 0;
    fake.items = 3;
    catchUp.receiveItem({ seq: 3, conversation_id: C, kind: 'muted', muted: true });
    expect(items).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(fake.accountCalls).toHaveLength(1));
    expect(items).toEqual([2, 3]);
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
