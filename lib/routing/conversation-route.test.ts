import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/stores/session-store';
import { threadPage } from '@/lib/testing/fixtures';
import { closeConversation, conversationSegment, openConversation, openMessage, showConversation } from './conversation-route';

const api = vi.hoisted(() => ({
  listMessages: vi.fn(async () => threadPage([])),
  listMessagesAround: vi.fn(async () => threadPage([])),
  listConversations: vi.fn(),
}));
vi.mock('@/lib/api/conversations', () => api);

describe('the open conversation and its address', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/main');
    showConversation(null);
  });
  afterEach(() => vi.restoreAllMocks());

  it('opening one shows it and pushes its address in the same step, so Back has an entry to return to at once', () => {
    const before = window.history.length;
    openConversation(7);
    expect(useSessionStore.getState().receiver).toBe(7);
    expect(window.location.pathname).toBe('/main/7');
    expect(window.history.length).toBe(before + 1);
  });

  it('a search result opens its conversation at the message, named in the address', () => {
    openMessage(7, 42);
    expect(useSessionStore.getState().receiver).toBe(7);
    expect(`${window.location.pathname}${window.location.search}`).toBe('/main/7?message=42');
  });

  it('closing it goes back in history, to the list it was opened from', () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    openConversation(7);
    closeConversation();
    expect(back).toHaveBeenCalledTimes(1);
    expect(useSessionStore.getState().receiver).toBeNull();
  });

  it('closing one that was not opened from the list (a reload, a link) replaces its address with the list', () => {
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    window.history.replaceState(null, '', '/main/7');
    showConversation(7);
    const before = window.history.length;
    closeConversation();
    expect(back).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/main');
    expect(window.history.length).toBe(before);
    expect(useSessionStore.getState().receiver).toBeNull();
  });

  it('reads the conversation a path names', () => {
    expect(conversationSegment('/main/7')).toBe('7');
    expect(conversationSegment('/main/abc/')).toBe('abc');
    expect(conversationSegment('/main')).toBeUndefined();
    expect(conversationSegment('/main/7/more')).toBeUndefined();
    expect(conversationSegment(null)).toBeUndefined();
  });
});
