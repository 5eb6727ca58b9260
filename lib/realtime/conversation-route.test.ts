import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setNavigator } from '@/lib/navigation';
import { useSessionStore } from '@/lib/stores/session-store';
import { closeConversation, openConversation } from './conversation-route';

const api = vi.hoisted(() => ({ listMessages: vi.fn(async () => ({ results: [], next_cursor: null })), listMessagesAround: vi.fn(), listConversations: vi.fn() }));
vi.mock('@/lib/api/conversations', () => api);

describe('the open conversation and its address', () => {
  const navigate = vi.fn();
  let restore: () => void;
  beforeEach(() => {
    navigate.mockReset();
    restore = setNavigator(navigate);
    window.history.replaceState(null, '', '/main');
    useSessionStore.getState().setReceiver(null);
  });
  afterEach(() => {
    restore();
    vi.restoreAllMocks();
  });

  it('opening one shows it at once and pushes its address', () => {
    openConversation(7);
    expect(useSessionStore.getState().receiver).toBe(7);
    expect(navigate).toHaveBeenCalledWith('/main/7', { push: true });
  });

  it('closing it goes back in history from its own address, to the list it was opened from', () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    openConversation(7);
    window.history.pushState(null, '', '/main/7'); // the route change committed
    closeConversation();
    expect(back).toHaveBeenCalledTimes(1);
    expect(useSessionStore.getState().receiver).toBeNull();
  });

  it('closing it before its address changed stays in the app: to the list, not back out of it', () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    openConversation(7);
    closeConversation(); // the route change to /main/7 has not committed yet
    expect(back).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenLastCalledWith('/main');
  });
});
