// What the messaging session's tests share (messaging-session.test.ts, session-events.test.ts): a
// session started for ME over the fake socket with a conversation list, the tab's visibility under
// the test's control, and what the tests read back. The test files mock the API and the socket
// service themselves (vi.mock belongs in a test file); this module uses those mocks.
import { afterEach, beforeEach, vi } from 'vitest';
import { listConversations, listMessages } from '@/lib/api/conversations';
import type { ConversationSummary } from '@/lib/contract';
import { setNavigator } from '@/lib/navigation';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { openConversation } from '@/lib/routing/conversation-route';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import { defaultAck, type FakeSocket } from '@/lib/socket/testing/fake-socket';
import { selectUnreadFor, useConversationsStore } from '@/lib/stores/conversations-store';
import { useViewStore } from '@/lib/stores/view-store';
import { settle } from '@/lib/testing/deferred';
import { conversationMessage, ME, summary, threadPage } from '@/lib/testing/fixtures';
import { startMessagingSession, stopMessagingSession } from '@/lib/realtime/messaging-session';

let visibility: DocumentVisibilityState;
/** The server's end of the session's connection, once start() has connected it. */
export let socket: FakeSocket;

/** Each test starts from a fresh fake socket service, a visible tab on /main, and ends with the session stopped. */
export function setUpMessagingSession(): void {
  beforeEach(() => {
    resetFakeSocketService();
    setNavigator(vi.fn());
    window.history.replaceState(null, '', '/main');
    vi.mocked(listConversations).mockReset();
    vi.mocked(listMessages).mockReset();
    vi.mocked(listMessages).mockResolvedValue(threadPage([conversationMessage(1)]));
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });

  afterEach(() => {
    stopMessagingSession();
  });
}

/** Opens the conversation and scrolls its newest message into view, as the thread list reports. */
export function openAndSee(peerId: number): void {
  openConversation(peerId);
  useViewStore.getState().setSeesLatest(true);
}

export function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

export const unreadFrom = (peerId: number) => selectUnreadFor(useConversationsStore.getState(), peerId);
export const reads = () => socket.sentEvents('read').map(([, payload]) => payload);

/** The account cursor the tests' list is read at: item seq 0. */
export const LIST_CURSOR = '0.1.0.0';


export async function start(rows: ConversationSummary[] = [summary(2, conversationMessage(1), 2)]): Promise<void> {
  vi.mocked(listConversations).mockResolvedValue({ results: rows, next_cursor: null, account_cursor: LIST_CURSOR });
  startMessagingSession(ME, { storage: createMemoryOutboxStorage() });
  socket = connectFakeSocket(ME);
  // Catch-up finds that nothing moved (defaultAck); a read leaves nothing unread.
  socket.ackResponder = async (event, payload) => (event === 'read' ? { data: { count: 0, unread_count: 0 } } : defaultAck(event, payload));
  await settle();
}
