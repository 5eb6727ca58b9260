import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ack, MessagePayload, SyncPayload, SyncResult } from '@/lib/contract';
import { message } from '@/lib/testing/fixtures';
import { createCatchUp, FAR_BEHIND_ITEMS, FIRST_PAGE_LIMIT } from './catch-up';

/** A server holding the account's messages with seqs 1..latest; answers pages of `pageSize`. */
function server(latest: number, pageSize = 500) {
  const fake = {
    calls: [] as SyncPayload[],
    latest,
    sync: vi.fn(async (payload: SyncPayload): Promise<Ack<SyncResult>> => {
      fake.calls.push(payload);
      const seqs: number[] = [];
      const size = Math.min(pageSize, payload.limit ?? pageSize);
      for (let seq = payload.after + 1; seq <= fake.latest && seqs.length <= size; seq += 1) seqs.push(seq);
      const page = seqs.slice(0, size);
      const hasMore = seqs.length > size;
      return {
        data: {
          messages: page.map((seq) => message(seq)),
          changes: [],
          through: hasMore ? page[page.length - 1]! : fake.latest,
          last_seq: fake.latest,
          has_more: hasMore,
        },
      };
    }),
  };
  return fake;
}

describe('catch-up by seq', () => {
  let applied: MessagePayload[];
  const apply = (messages: MessagePayload[]) => void applied.push(...messages);

  beforeEach(() => {
    applied = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => vi.useRealTimers());

  it('starts from the list’s last_seq and fetches what came after it, page by page', async () => {
    const fake = server(1_203, 500);
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => true, apply });
    catchUp.begin(100);
    await vi.waitFor(() => expect(catchUp.cursor()).toBe(1_203));
    // A small first page (it answers fast and says how far behind), then the largest pages.
    expect(fake.calls.map((call) => [call.after, call.limit])).toEqual([
      [100, FIRST_PAGE_LIMIT],
      [200, undefined],
      [700, undefined],
      [1_200, undefined],
    ]);
    expect(applied.map((m) => m.seq)).toEqual(Array.from({ length: 1_103 }, (_, i) => 101 + i));
    expect(catchUp.cursor()).toBe(1_203);
  });

  it('asks for the next page before applying the one it has (the server reads while the client renders)', async () => {
    const fake = server(1_000, 500);
    const asked: number[] = [];
    const catchUp = createCatchUp({
      sync: fake.sync,
      isReady: () => true,
      apply: (messages) => {
        asked.push(fake.calls.length);
        apply(messages);
      },
    });
    catchUp.begin(0);
    await vi.waitFor(() => expect(catchUp.cursor()).toBe(1_000));
    // Applying each page, the request for the next one was out already; the third was the last.
    expect(asked).toEqual([2, 3, 3]);
    expect(applied.map((m) => m.seq)).toEqual(Array.from({ length: 1_000 }, (_, i) => 1 + i));
  });

  it('moves the cursor over live messages only while they are contiguous', () => {
    const fake = server(0);
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => false, apply });
    catchUp.note(5); // before the list: remembered
    catchUp.begin(3);
    expect(catchUp.cursor()).toBe(3);
    catchUp.note(4);
    expect(catchUp.cursor()).toBe(5);
    catchUp.note(5);
    catchUp.note(2);
    expect(catchUp.cursor()).toBe(5);
  });

  it('a gap that stays open for a second is filled by a sync; one closed in time is not', async () => {
    const fake = server(4);
    const onGapFilled = vi.fn();
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => true, apply, onGapFilled });
    catchUp.begin(1);
    await catchUp.sync(); // holds 1..4 now
    fake.calls.length = 0;
    applied = [];

    catchUp.note(6); // 5 is late…
    await vi.advanceTimersByTimeAsync(500);
    catchUp.note(5); // …and arrives: no sync
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fake.calls).toEqual([]);
    expect(catchUp.cursor()).toBe(6);

    fake.latest = 8;
    catchUp.note(8); // 7 was lost on the way
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(onGapFilled).toHaveBeenCalledOnce());
    expect(fake.calls).toEqual([{ after: 6, limit: FIRST_PAGE_LIMIT }]);
    expect(applied.map((m) => m.seq)).toEqual([7, 8]);
    expect(catchUp.cursor()).toBe(8);
  });

  it('does nothing while not connected, and runs once more when asked during a sync', async () => {
    let ready = false;
    const fake = server(3);
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => ready, apply });
    catchUp.begin(0);
    await catchUp.sync();
    expect(fake.calls).toEqual([]);
    ready = true;
    const first = catchUp.sync();
    const second = catchUp.sync();
    expect(await first).toBe(3);
    expect(await second).toBe(3);
    expect(fake.calls.map((call) => call.after)).toEqual([0, 3]);
  });

  it('a refused sync is asked again a little later, and again, until it answers', async () => {
    const fake = server(30);
    let refusals = 2;
    const sync = vi.fn(async (payload: SyncPayload): Promise<Ack<SyncResult>> => (refusals-- > 0 ? { error: { msg: 'Too many requests, slow down.' } } : fake.sync(payload)));
    const catchUp = createCatchUp({ sync, isReady: () => true, apply });
    catchUp.begin(10);
    await vi.advanceTimersByTimeAsync(0);
    expect(sync).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sync).toHaveBeenCalledTimes(2);
    expect(catchUp.cursor()).toBe(10);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sync).toHaveBeenCalledTimes(3);
    expect(catchUp.cursor()).toBe(30);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sync).toHaveBeenCalledTimes(3);
    catchUp.stop();
  });

  it('a failed sync leaves the cursor where it was', async () => {
    const sync = vi.fn(async (): Promise<Ack<SyncResult>> => ({ error: { msg: 'operation has timed out' } }));
    const catchUp = createCatchUp({ sync, isReady: () => true, apply });
    catchUp.begin(7);
    expect(await catchUp.sync()).toBe(0);
    expect(catchUp.cursor()).toBe(7);
  });

  it('says it is far behind once, with the first page, only when more than a full page is missing', async () => {
    for (const [missing, far] of [
      [FAR_BEHIND_ITEMS + 1, 1],
      [FAR_BEHIND_ITEMS, 0],
      [FIRST_PAGE_LIMIT + 1, 0],
    ] as const) {
      const fake = server(100 + missing, 500);
      const onFarBehind = vi.fn();
      const catchUp = createCatchUp({ sync: fake.sync, isReady: () => true, apply, onFarBehind });
      catchUp.begin(100);
      await vi.waitFor(() => expect(catchUp.cursor()).toBe(100 + missing));
      expect(onFarBehind, `${missing} missing`).toHaveBeenCalledTimes(far);
    }
  });

  it('asks for the next page only once what far behind reads afresh is answered', async () => {
    const fake = server(100 + FAR_BEHIND_ITEMS * 3, 500);
    let answered: () => void = () => undefined;
    const onFarBehind = vi.fn(() => new Promise<void>((resolve) => (answered = resolve)));
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => true, apply, onFarBehind });
    catchUp.begin(100);
    await vi.waitFor(() => expect(onFarBehind).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(fake.calls).toHaveLength(1);
    expect(applied).toEqual([]);
    answered();
    await vi.waitFor(() => expect(catchUp.cursor()).toBe(100 + FAR_BEHIND_ITEMS * 3));
    expect(fake.calls[1]!.after).toBe(100 + FIRST_PAGE_LIMIT);
  });

  it('goes on with the catch-up when what far behind reads afresh fails', async () => {
    const fake = server(100 + FAR_BEHIND_ITEMS * 2, 500);
    const catchUp = createCatchUp({ sync: fake.sync, isReady: () => true, apply, onFarBehind: () => Promise.reject(new Error('offline')) });
    catchUp.begin(100);
    await vi.waitFor(() => expect(catchUp.cursor()).toBe(100 + FAR_BEHIND_ITEMS * 2));
  });
});
