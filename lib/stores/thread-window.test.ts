import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationThreadPage } from '@/lib/contract';
import { deferred } from '@/lib/testing/deferred';
import { conversationIdOf, conversationMessage, ME, message, threadPage } from '@/lib/testing/fixtures';
import { useDirectConversations } from './direct-conversations';
import { UNCHANGED } from './thread-messages';
import { useThreadStore } from './thread-store';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
  listMessagesAround: vi.fn<(conversationId: number, messageId: number) => Promise<ConversationThreadPage>>(),
  listConversations: vi.fn(),
}));
vi.mock('@/lib/api/conversations', () => api);

// The conversation with 2 is known (the list named it), so no profile is asked for; the map goes
// back to empty after each test (testing/client/zustand.ts).
beforeEach(() => {
  useDirectConversations.getState().learn(conversationIdOf(2), 2);
});

const threads = () => useThreadStore.getState();
const thread = (peerId = 2) => threads().threads[peerId]!;
const shown = (peerId = 2) => thread(peerId).messages.map((m) => m.id ?? m.status);
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** A page of messages `from`…`to`, newest first as the server answers. */
const page = (from: number, to: number, next: string | null, newer: string | null = null) =>
  threadPage(ids(from, to).reverse().map((id) => conversationMessage(id)), { next_cursor: next, newer_cursor: newer });

describe('thread store: a window around a message', () => {
  beforeEach(async () => {
    api.listMessages.mockReset();
    api.listMessagesAround.mockReset();
    threads().reset();
    api.listMessages.mockResolvedValueOnce(page(100, 120, 'older-than-100'));
    await threads().loadThread(2);
  });

  it('focuses a held message without asking the server', async () => {
    expect(await threads().showMessage(2, 110)).toBe(true);
    expect(api.listMessagesAround).not.toHaveBeenCalled();
    expect(thread().focus).toMatchObject({ id: 110 });
    // The messages were not replaced: the list keeps its place and scrolls.
    expect(thread().view).toBe(0);
    const first = thread().focus!.nonce;
    await threads().showMessage(2, 110);
    expect(thread().focus!.nonce).not.toBe(first);
  });

  it('shows the window instead of the newest messages, keeps live ones aside, and joins them when newer pages reach them', async () => {
    api.listMessagesAround.mockResolvedValueOnce(page(40, 60, 'older-than-40', 'newer-than-60'));
    expect(await threads().showMessage(2, 50)).toBe(true);
    expect(api.listMessagesAround).toHaveBeenCalledWith(conversationIdOf(2), 50);
    expect(shown()).toEqual(ids(40, 60));
    expect(thread()).toMatchObject({ nextCursor: 'older-than-40', newerCursor: 'newer-than-60', focus: { id: 50 } });
    // Replaced, not extended: the list starts over at the message (ThreadView keys it by view).
    expect(thread().view).toBe(1);

    // Live messages (and a sync page) wait beyond the gap; changes still reach them.
    threads().receiveMessage(2, message(121));
    threads().receiveMessages([{ peerId: 2, message: message(122) }]);
    threads().applyChanges([{ kind: 'edit', seq: 500, message_id: 121, peer_id: 2, text: 'edited', edited_at: '2025-01-01T13:00:00.000Z' }]);
    expect(shown()).toEqual(ids(40, 60));

    api.listMessages.mockResolvedValueOnce(page(61, 90, null, 'newer-than-90')).mockResolvedValueOnce(page(91, 122, null, null));
    await threads().loadNewer(2);
    expect(api.listMessages).toHaveBeenLastCalledWith(conversationIdOf(2), 'newer-than-60');
    expect(shown()).toEqual(ids(40, 90));
    expect(thread().newerCursor).toBe('newer-than-90');
    await threads().loadNewer(2);
    // Joined: one run without gaps or duplicates, the edit kept, and live messages land directly again.
    expect(shown()).toEqual(ids(40, 122));
    expect(thread().messages.find((m) => m.id === 121)?.text).toBe('edited');
    expect(thread()).toMatchObject({ newerCursor: null, tail: [] });
    threads().receiveMessage(2, message(123));
    expect(shown()).toEqual(ids(40, 123));
    // Older pages still follow the window's older cursor.
    api.listMessages.mockResolvedValueOnce(page(30, 39, null));
    await threads().loadOlder(2);
    expect(api.listMessages).toHaveBeenLastCalledWith(conversationIdOf(2), 'older-than-40');
    expect(shown()).toEqual(ids(30, 123));
  });

  it('asked twice for the same window before it arrives (Enter pressed twice on a quote), loads and shows it once', async () => {
    const answer = deferred<ConversationThreadPage>();
    api.listMessagesAround.mockReturnValueOnce(answer.promise);
    const first = threads().showMessage(2, 50);
    const second = threads().showMessage(2, 50);
    answer.resolve(page(40, 60, 'older-than-40', 'newer-than-60'));
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(api.listMessagesAround).toHaveBeenCalledTimes(1);
    expect(thread().view).toBe(1);
    expect(thread().tail.map((m) => m.id)).toEqual(ids(100, 120));
  });

  it('a window that already reaches the newest message is joined at once', async () => {
    api.listMessagesAround.mockResolvedValueOnce(page(80, 120, 'older-than-80', null));
    await threads().showMessage(2, 90);
    expect(shown()).toEqual(ids(80, 120));
    expect(thread().newerCursor).toBeNull();
  });

  it('jump to latest leaves the window for the newest page, keeping messages not sent yet', async () => {
    api.listMessagesAround.mockResolvedValueOnce(page(40, 60, 'older-than-40', 'newer-than-60'));
    await threads().showMessage(2, 50);
    threads().addLocal({ ...message(0), ...UNCHANGED, id: null, seq: null, sender_id: ME, recipient_id: 2, client_id: 'local-1', read_at: null, status: 'sending', error: null });
    const newest = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    const jumping = threads().jumpToLatest(2);
    newest.resolve(page(101, 121, 'older-than-101'));
    await jumping;
    expect(shown()).toEqual([...ids(101, 121), 'sending']);
    expect(thread()).toMatchObject({ newerCursor: null, nextCursor: 'older-than-101', status: 'ready', view: 2, focus: { id: 'latest' } });
  });

  it('a newer page answered after jumping to latest is dropped', async () => {
    api.listMessagesAround.mockResolvedValueOnce(page(40, 60, 'older-than-40', 'newer-than-60'));
    await threads().showMessage(2, 50);
    const late = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(late.promise).mockResolvedValueOnce(page(101, 121, null));
    const loadingNewer = threads().loadNewer(2);
    await threads().jumpToLatest(2);
    late.resolve(page(61, 70, null, 'newer-than-70'));
    await loadingNewer;
    expect(shown()).toEqual(ids(101, 121));
    expect(thread().newerCursor).toBeNull();
  });

  it('an unknown message leaves the thread as it was and says so', async () => {
    api.listMessagesAround.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await threads().showMessage(2, 5)).toBe(false);
    expect(shown()).toEqual(ids(100, 120));
    expect(thread()).toMatchObject({ status: 'ready', newerCursor: null, errorKind: 'network' });
  });
});

describe('thread store: the newest page and a window asked for together (a search result opened)', () => {
  beforeEach(() => {
    api.listMessages.mockReset();
    api.listMessagesAround.mockReset();
    threads().reset();
  });

  it('keeps the window when the newest page answers after it, and joins them later', async () => {
    const newest = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    api.listMessagesAround.mockResolvedValueOnce(page(40, 60, null, 'newer-than-60'));
    const loading = threads().loadThread(2);
    await threads().showMessage(2, 50);
    newest.resolve(page(100, 120, 'older-than-100'));
    await loading;
    expect(shown()).toEqual(ids(40, 60));
    expect(thread()).toMatchObject({ status: 'ready', newerCursor: 'newer-than-60' });
    api.listMessages.mockResolvedValueOnce(page(61, 120, null, null));
    await threads().loadNewer(2);
    expect(shown()).toEqual(ids(40, 120));
  });
});

describe('thread store: held messages have no hole', () => {
  beforeEach(() => {
    api.listMessages.mockReset();
    threads().reset();
  });

  it('caught-up messages older than the oldest held, with more history beyond, are left to scrolling up', async () => {
    api.listMessages.mockResolvedValueOnce(page(100, 120, 'older-than-100'));
    await threads().loadThread(2);
    threads().receiveMessages([...ids(50, 60), 121].map((id) => ({ peerId: 2, message: message(id) })));
    expect(shown()).toEqual(ids(100, 121));
  });

  it('with the whole history held, every caught-up message is merged', async () => {
    api.listMessages.mockResolvedValueOnce(page(100, 120, null));
    await threads().loadThread(2);
    threads().receiveMessages([99, 121].map((id) => ({ peerId: 2, message: message(id) })));
    expect(shown()).toEqual(ids(99, 121));
  });

  it('messages merged while the newest page loads stay only from its oldest on', async () => {
    const newest = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    const loading = threads().loadThread(2);
    threads().receiveMessages([...ids(50, 60), 121].map((id) => ({ peerId: 2, message: message(id) })));
    newest.resolve(page(100, 120, 'older-than-100'));
    await loading;
    expect(shown()).toEqual(ids(100, 121));
  });

  it('restarting at the newest page replaces what was held, keeps what is not sent yet, and opens at the newest', async () => {
    api.listMessages.mockResolvedValueOnce(page(100, 120, 'older-than-100'));
    await threads().loadThread(2);
    threads().addLocal({ ...message(0), ...UNCHANGED, id: null, seq: null, sender_id: ME, recipient_id: 2, client_id: 'local-1', read_at: null, status: 'sending', error: null });
    const newest = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(newest.promise);
    const restarting = threads().restartAtNewest(2);
    // Until the page is in, the thread shows what it held (and what the catch-up brings).
    threads().receiveMessages([121, 122].map((id) => ({ peerId: 2, message: message(id) })));
    expect(shown()).toEqual([...ids(100, 122), 'sending']);
    newest.resolve(page(1001, 1050, 'older-than-1001'));
    await restarting;
    expect(shown()).toEqual([...ids(1001, 1050), 'sending']);
    expect(thread()).toMatchObject({ nextCursor: 'older-than-1001', status: 'ready', view: 1, focus: { id: 'latest' } });
  });

  it('an older page that answers after a restart is dropped, as is a restart overtaken by a later one or no longer wanted', async () => {
    api.listMessages.mockResolvedValueOnce(page(100, 120, 'older-than-100'));
    await threads().loadThread(2);
    const older = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(older.promise);
    const loadingOlder = threads().loadOlder(2);
    const first = deferred<ConversationThreadPage>();
    const second = deferred<ConversationThreadPage>();
    api.listMessages.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const restarting = [threads().restartAtNewest(2), threads().restartAtNewest(2)];
    second.resolve(page(2001, 2050, 'older-than-2001'));
    first.resolve(page(1001, 1050, 'older-than-1001'));
    await Promise.all(restarting);
    older.resolve(page(80, 99, 'older-than-80'));
    await loadingOlder;
    expect(shown()).toEqual(ids(2001, 2050));
    expect(thread()).toMatchObject({ nextCursor: 'older-than-2001', loadingOlder: false, view: 1 });

    api.listMessages.mockResolvedValueOnce(page(3001, 3050, 'older-than-3001'));
    await threads().restartAtNewest(2, () => false);
    expect(shown()).toEqual(ids(2001, 2050));
  });

  it('a thread not held, or showing a window, is not restarted', async () => {
    await threads().restartAtNewest(2);
    expect(api.listMessages).not.toHaveBeenCalled();
  });
});
