import type { ReactNode } from 'react';
import { cleanup, render as renderOnly, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfo, ConversationSummaryPage } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { setNavigator } from '@/lib/navigation';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useNotificationStore, type NotificationState } from '@/lib/stores/notification-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { storeToken } from '@/lib/session/storage';
import { deferred, settle } from '@/lib/testing/deferred';
import { conversationMessage, ME, summary } from '@/lib/testing/fixtures';
import { I18nProvider } from '@/components/i18n/i18n-provider';
import { MainGate } from './main-gate';

const api = vi.hoisted(() => ({
  fetchAccountInfo: vi.fn<() => Promise<AccountInfo>>(),
  listConversations: vi.fn<() => Promise<ConversationSummaryPage>>(),
}));
vi.mock('@/lib/api/accounts', () => ({ fetchAccountInfo: api.fetchAccountInfo, updateSettings: vi.fn(), logout: vi.fn() }));
vi.mock('@/lib/api/conversations', () => ({ listConversations: api.listConversations, listMessages: vi.fn() }));
// The language's texts, held by a test until it lets them in.
const language = vi.hoisted(() => ({ held: null as Promise<void> | null }));
vi.mock('@/lib/i18n', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/i18n')>();
  return {
    ...original,
    initI18n: async (...args: Parameters<typeof original.initI18n>) => {
      await language.held;
      return original.initI18n(...args);
    },
  };
});
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

/** The gate as the session layout has it: inside the provider that loads the language. */
const render = (ui: ReactNode) => renderOnly(<I18nProvider signInOnly={false}>{ui}</I18nProvider>);

const me: AccountInfo = { id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

describe('MainGate (the main area: user loaded, list requested with it)', () => {
  let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;

  beforeEach(async () => {
    localStorage.clear();
    storeToken('abc');
    api.fetchAccountInfo.mockReset();
    api.listConversations.mockReset();
    navigate = vi.fn<(path: string) => void>();
    language.held = null;
    useNotificationStore.getState().reset();
    await initI18n('en');
    return setNavigator(navigate);
  });

  afterEach(cleanup);

  it('asks for the conversation list while accounts/info is still pending, and shows the area once the user is active', async () => {
    const info = deferred<AccountInfo>();
    api.fetchAccountInfo.mockReturnValue(info.promise);
    api.listConversations.mockResolvedValue({ results: [summary(2, conversationMessage(1))], next_cursor: null, account_cursor: '0.0.0.0' });
    render(
      <MainGate>
        <p>the main area</p>
      </MainGate>,
    );
    await settle();
    expect(api.fetchAccountInfo).toHaveBeenCalledTimes(1);
    expect(api.listConversations).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('the main area')).toBeNull();
    info.resolve(me);
    expect(await screen.findByText('the main area')).toBeTruthy();
    expect(useSessionStore.getState().user).toEqual(me);
    expect(useConversationsStore.getState().status).toBe('ready');
  });

  it('loads the user while the language is still loading, and shows the area only once it is in', async () => {
    const texts = deferred<void>();
    language.held = texts.promise;
    // This browser's notification state already read: nothing else holds the area back.
    useNotificationStore.getState().update({ loaded: true });
    api.fetchAccountInfo.mockResolvedValue(me);
    api.listConversations.mockResolvedValue({ results: [summary(2, conversationMessage(1))], next_cursor: null, account_cursor: '0.0.0.0' });
    render(
      <MainGate>
        <p>the main area</p>
      </MainGate>,
    );
    await vi.waitFor(() => expect(useSessionStore.getState().user).toEqual(me));
    await settle();
    expect(screen.queryByText('the main area')).toBeNull();
    expect(screen.getByRole('status')).toBeTruthy();
    texts.resolve();
    expect(await screen.findByText('the main area')).toBeTruthy();
  });

  it('an inactive account: signed out, sent to /account, never rendered, and the list read for it dropped', async () => {
    api.fetchAccountInfo.mockResolvedValue({ ...me, is_active: false });
    api.listConversations.mockResolvedValue({ results: [summary(2, conversationMessage(1))], next_cursor: null, account_cursor: '0.0.0.0' });
    render(
      <MainGate>
        <p>the main area</p>
      </MainGate>,
    );
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/account'));
    await settle();
    expect(screen.queryByText('the main area')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(useConversationsStore.getState().conversations).toEqual([]);
  });

  it('opens the area with the notification prompt already decided, so it never pushes the list down', async () => {
    api.fetchAccountInfo.mockResolvedValue(me);
    api.listConversations.mockResolvedValue({ results: [summary(2, conversationMessage(1))], next_cursor: null, account_cursor: '0.0.0.0' });
    // The session's read of this browser's state, held: the area waits for it (up to its cap).
    const update = useNotificationStore.getState().update;
    const held: Partial<NotificationState>[] = [];
    useNotificationStore.setState({ update: (changes) => (changes.loaded ? held.push(changes) : update(changes)) });
    try {
      render(
        <MainGate>
          <p>the main area</p>
        </MainGate>,
      );
      await vi.waitFor(() => expect(held).toHaveLength(1), { interval: 5 });
      expect(screen.queryByText('the main area')).toBeNull();
      update(held[0]!);
      expect(await screen.findByText('the main area')).toBeTruthy();
    } finally {
      useNotificationStore.setState({ update });
    }
  });
});

