import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ack, ConversationThreadPage, ReadResult } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';
import { deferred, settle, type Deferred } from '@/lib/testing/deferred';
import { useDirectConversations } from '@/lib/stores/direct-conversations';
import { conversation, conversationIdOf, conversationMessage, message, threadPage } from '@/lib/testing/fixtures';
import { createReadMarker, type ReadMarker, type ReadMarkerOptions } from './read-marking';

const api = vi.hoisted(() => ({
  listConversations: vi.fn(),
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
}));
vi.mock('@/lib/api/conversations', () => api);

const INTERVAL = 1_000;
let asked: Parameters<ReadMarkerOptions['request']>[0][];
let answers: Deferred<Ack<ReadResult>>[];
let marker: ReadMarker;

/** The open conversation with 2: `count` unread messages from them, ids 1…count. */
async function openWithUnread(count: number): Promise<void> {
  const messages = Array.from({ length: count }, (_, index) => conversationMessage(index + 1));
  useConversationsStore.setState({ conversations: [conversation(2, message(count), count)], status: 'ready' });
  useDirectConversations.getState().learn(conversationIdOf(2), 2);
  api.listMessages.mockResolvedValue(threadPage([...messages].reverse()));
  await useThreadStore.getState().loadThread(2);
  useSessionStore.getState().setReceiver(2);
}

/** The list reports message `id` on screen, and the session asks the marker to read. */
function see(id: number): void {
  useViewStore.getState().noteSeen(2, id);
  marker.readOpen();
}

const answer = (index: number, unread: number) => answers[index]!.resolve({ data: { count: unread, unread_count: unread } });

describe('read marking', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    asked = [];
    answers = [];
    marker = createReadMarker({
      intervalMs: INTERVAL,
      request: (payload) => {
        asked.push(payload);
        const answered = deferred<Ack<ReadResult>>();
        answers.push(answered);
        return answered.promise;
      },
    });
  });

  afterEach(() => {
    marker.stop();
    vi.useRealTimers();
  });

  it('reads up to the newest message seen, and the badge and thread follow the answer', async () => {
    await openWithUnread(40);
    see(12);
    expect(asked).toEqual([{ user_id: 2, up_to: 12 }]);
    answer(0, 28);
    await settle();
    expect(useConversationsStore.getState().conversations[0]?.unread_count).toBe(28);
    const unread = useThreadStore.getState().threads[2]!.messages.filter((item) => item.read_at === null).map((item) => item.id);
    expect(unread).toEqual(Array.from({ length: 28 }, (_, index) => index + 13));
  });

  it('coalesces the reads of someone scrolling: one under way at a time, one per interval, each as far as seen by then', async () => {
    await openWithUnread(40);
    see(5);
    for (let id = 6; id <= 20; id += 1) see(id);
    expect(asked).toEqual([{ user_id: 2, up_to: 5 }]);
    answer(0, 35);
    await settle();
    // Answered, but sent less than an interval ago: the next waits.
    expect(asked).toHaveLength(1);
    for (let id = 21; id <= 37; id += 1) see(id);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(asked).toEqual([
      { user_id: 2, up_to: 5 },
      { user_id: 2, up_to: 37 },
    ]);
    // Seen before, or not past what was asked: nothing more goes out.
    see(30);
    answer(1, 3);
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(asked).toHaveLength(2);
    expect(useConversationsStore.getState().conversations[0]?.unread_count).toBe(3);
  });

  it('reads nothing while the tab is hidden, nor what was never on screen', async () => {
    await openWithUnread(3);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    see(3);
    expect(asked).toEqual([]);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    useViewStore.getState().clearSeen();
    marker.readOpen();
    expect(asked).toEqual([]);
  });

  it('a refused read is asked again when next seen; a message read as it arrived counts on its badge after all', async () => {
    await openWithUnread(2);
    marker.readArrived(2, 2);
    answers[0]!.resolve({ error: { msg: 'Not connected.' } });
    await settle();
    expect(useConversationsStore.getState().conversations[0]?.unread_count).toBe(3);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    see(2);
    expect(asked).toEqual([
      { user_id: 2, up_to: 2 },
      { user_id: 2, up_to: 2 },
    ]);
  });
});
