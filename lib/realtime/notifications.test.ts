// The messaging session's notifications, with the real session, stores and wiring over a fake
// socket. The browser's parts jsdom lacks stand in at its edges: a service worker container whose
// worker says it showed whatever it is handed (public/sw.js's own decisions are the e2e spec's),
// the Notification permission, and Audio.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary, ConversationSummaryPage, NotificationContent, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { setNavigator } from '@/lib/navigation';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import type { FakeSocket } from '@/lib/socket/testing/fake-socket';
import { useNotificationStore } from '@/lib/stores/notification-store';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { settle } from '@/lib/testing/deferred';
import { account, conversationIdOf, conversationMessage, ME, summary, threadPage, user } from '@/lib/testing/fixtures';
import { startMessagingSession, stopMessagingSession } from './messaging-session';

const api = vi.hoisted(() => ({ listConversations: vi.fn<(cursor?: string | null) => Promise<ConversationSummaryPage>>() }));
vi.mock('@/lib/api/conversations', () => ({ ...api, listMessages: vi.fn(async () => threadPage([])) }));
vi.mock('@/lib/api/users', () => ({ searchUsers: vi.fn(), getProfile: vi.fn(async (id: number) => ({ ...user(id), followers_count: 0, following_count: 0, conversation_id: conversationIdOf(id) })) }));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

/** navigator.serviceWorker with one active worker that shows every notification it is handed, until closed. */
class FakeServiceWorkers extends EventTarget {
  handed: NotificationContent[] = [];
  /** The messages whose notifications were closed, in order. */
  closed: number[] = [];
  visibilityReports: boolean[] = [];
  private readonly registration = {
    active: {
      postMessage: (data: { type: string; content?: NotificationContent; visible?: boolean }) => {
        if (data.type === 'visibility') this.visibilityReports.push(Boolean(data.visible));
        if (data.type !== 'notify' || !data.content) return;
        this.handed.push(data.content);
        const answer = { type: 'notified', message_id: data.content.message_id, shown: true };
        queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data: answer })));
      },
    },
    getNotifications: async ({ tag }: { tag?: string } = {}) =>
      this.handed
        .filter((content) => (tag === undefined || content.tag === tag) && !this.closed.includes(content.message_id))
        .map((content) => ({ close: () => this.closed.push(content.message_id) })),
  };
  readonly ready = Promise.resolve(this.registration);
  register = async () => this.registration;
}

const workers = new FakeServiceWorkers();
let plays = 0;
let visibility: DocumentVisibilityState;
let socket: FakeSocket;
/** The account cursor the list is read at (item seq 0); catch-up finds that nothing moved since. */
const LIST_CURSOR = '0.1.0.0';

const me = (fields: Partial<User> = {}): User => account(fields);

function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

async function start(rows: ConversationSummary[]): Promise<void> {
  api.listConversations.mockResolvedValue({ results: rows, next_cursor: null, account_cursor: LIST_CURSOR });
  startMessagingSession(ME, { storage: createMemoryOutboxStorage() });
  socket = connectFakeSocket(ME);
  await vi.waitFor(() => expect(useNotificationStore.getState().loaded).toBe(true));
  await settle();
}

const handedIds = () => workers.handed.map((content) => content.message_id);

beforeAll(() => {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: workers });
});
afterAll(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('notifications in the messaging session', () => {
  beforeEach(async () => {
    await initI18n('en');
    resetFakeSocketService();
    setNavigator(vi.fn());
    workers.handed = [];
    workers.closed = [];
    workers.visibilityReports = [];
    plays = 0;
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission: async () => 'granted' });
    vi.stubGlobal(
      'Audio',
      class {
        play() {
          plays += 1;
          return Promise.resolve();
        }
      },
    );
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    publishUser(me());
  });

  afterEach(() => {
    stopMessagingSession();
    vi.unstubAllGlobals();
  });

  it('reports the tab’s visibility to the server on connecting and on every change, and to the worker', async () => {
    await start([]);
    const reported = () => socket.sentEvents('visibility').map(([, payload]) => payload);
    // Once the socket is ready (again once this browser's notification state is read: harmless).
    expect(reported().length).toBeGreaterThan(0);
    expect(new Set(reported().map((payload) => JSON.stringify(payload)))).toEqual(new Set(['{"visible":true}']));
    const before = reported().length;
    setVisibility('hidden');
    setVisibility('visible');
    await settle();
    expect(reported().slice(before)).toEqual([{ visible: false }, { visible: true }]);
    expect(workers.visibilityReports.slice(-2)).toEqual([false, true]);
  });

  it('a message to a hidden tab goes to the worker, with the app’s sound; none while the tab is in view', async () => {
    await start([summary(2, conversationMessage(1), 0)]);
    socket.serverEmits('message', conversationMessage(5));
    await settle();
    expect(workers.handed).toEqual([]);

    setVisibility('hidden');
    socket.serverEmits('message', conversationMessage(6, { text: 'are you there?' }));
    await vi.waitFor(() => expect(plays).toBe(1));
    expect(workers.handed).toEqual([
      expect.objectContaining({ title: 'user2', body: 'are you there?', tag: 'conversation-2', url: '/main/2', peer_id: 2, silent: true }),
    ]);
  });

  it('never for a muted conversation, whether muted when the list was read or on another device since', async () => {
    await start([summary(2, conversationMessage(1), 0, true), summary(3, conversationMessage(2, { sender_id: 3 }), 0)]);
    setVisibility('hidden');
    socket.serverEmits('message', conversationMessage(5, { sender_id: 2 }));
    socket.serverEmits('message', conversationMessage(6, { sender_id: 3 }));
    // Handed over in the order they came: once 6 is there, 5 would have been before it.
    await vi.waitFor(() => expect(handedIds()).toEqual([6]));

    socket.serverEmits('safety_changed', { type: 'mute', user_id: 3, muted: true });
    socket.serverEmits('safety_changed', { type: 'mute', user_id: 2, muted: false });
    socket.serverEmits('message', conversationMessage(7, { sender_id: 3 }));
    socket.serverEmits('message', conversationMessage(8, { sender_id: 2 }));
    await vi.waitFor(() => expect(handedIds()).toEqual([6, 8]));
  });

  it('follows the account’s preview and sound settings', async () => {
    publishUser(me({ notification_preview: 'none', notification_sound: false }));
    await start([summary(2, conversationMessage(1), 0)]);
    setVisibility('hidden');
    socket.serverEmits('message', conversationMessage(5, { text: 'a secret' }));
    await vi.waitFor(() => expect(workers.handed).toHaveLength(1));
    expect(workers.handed[0]).toMatchObject({ title: 'Parley', body: 'You have a new message', url: '/main' });
    expect(JSON.stringify(workers.handed[0])).not.toContain('secret');
    await settle();
    expect(plays).toBe(0);
  });

  it('a read on one of the user’s devices closes that person’s notifications, and only theirs', async () => {
    await start([summary(2, conversationMessage(1), 0), summary(3, conversationMessage(2, { sender_id: 3 }), 0)]);
    setVisibility('hidden');
    socket.serverEmits('message', conversationMessage(5, { sender_id: 2 }));
    socket.serverEmits('message', conversationMessage(6, { sender_id: 3 }));
    await vi.waitFor(() => expect(handedIds()).toEqual([5, 6]));

    // Deleting one for oneself is no read: nothing closes.
    socket.serverEmits('account_item', { seq: 1, conversation_id: conversationIdOf(3), kind: 'hide', message_id: 2, preview: null });
    socket.serverEmits('account_item', { seq: 2, conversation_id: conversationIdOf(2), kind: 'read', read_seq: 5, unread_count: 0 });
    await vi.waitFor(() => expect(workers.closed).toEqual([5]));
    await settle();
    expect(workers.closed).toEqual([5]);
  });

  it('a click on a notification opens its conversation', async () => {
    window.history.replaceState(null, '', '/main');
    await start([summary(2, conversationMessage(1), 0)]);
    workers.dispatchEvent(new MessageEvent('message', { data: { type: 'open-conversation', peer_id: 2 } }));
    expect(window.location.pathname).toBe('/main/2');
    expect(useSessionStore.getState().receiver).toBe(2);
  });
});
