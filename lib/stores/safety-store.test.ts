import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockResult, ConversationSummaryPage, MuteResult, User } from '@/lib/contract';
import { account, conversation, conversationMessage, message, summary } from '@/lib/testing/fixtures';
import { useConversationsStore } from './conversations-store';
import { usePresenceStore } from './presence-store';
import { useSafetyStore } from './safety-store';
import { useSessionStore } from './session-store';

const api = vi.hoisted(() => ({
  blockUser: vi.fn<(id: number) => Promise<BlockResult>>(),
  unblockUser: vi.fn<(id: number) => Promise<BlockResult>>(),
  setConversationMuted: vi.fn<(id: number, muted: boolean) => Promise<MuteResult>>(),
  listConversations: vi.fn<() => Promise<ConversationSummaryPage>>(),
}));
vi.mock('@/lib/api/safety', () => ({
  blockUser: api.blockUser,
  unblockUser: api.unblockUser,
  setConversationMuted: api.setConversationMuted,
}));
vi.mock('@/lib/api/conversations', () => ({ listConversations: api.listConversations }));

const safety = () => useSafetyStore.getState();
const rows = () => useConversationsStore.getState().conversations.map((row) => [row.user.id, row.unread_count, row.muted]);
const me: User = account({ id: 7 });

// Every store goes back to its initial state after each test (testing/client/zustand.ts).
beforeEach(() => {
  useConversationsStore.setState({ conversations: [conversation(2, message(2), 3), conversation(3, message(1, { sender_id: 3 }), 1)], status: 'ready' });
  useSessionStore.getState().publishUser(me);
});

describe('safety store', () => {
  it('blocking takes the conversation out of the list and puts the person on the blocked list', async () => {
    api.blockUser.mockResolvedValue({ user_id: 2, blocked: true });
    expect(await safety().block({ id: 2, username: 'bo', avatar: null })).toEqual({ ok: true });
    expect(rows()).toEqual([[3, 1, false]]);
    expect(safety().blocked.map((user) => user.id)).toEqual([2]);
  });

  it('blocking drops the person’s status at once: no "Online" stays on screen', async () => {
    usePresenceStore.getState().replace([
      { user_id: 2, online: true, last_seen_at: null },
      { user_id: 3, online: true, last_seen_at: null },
    ]);
    api.blockUser.mockResolvedValue({ user_id: 2, blocked: true });
    await safety().block({ id: 2, username: 'bo', avatar: null });
    expect(usePresenceStore.getState().presence).toEqual({ 3: { online: true, lastSeenAt: null } });
  });

  it('a refused block changes nothing and says why', async () => {
    api.blockUser.mockRejectedValue(new Error('User not found.'));
    expect(await safety().block({ id: 2, username: 'bo', avatar: null })).toEqual({ ok: false, error: 'User not found.' });
    expect(rows()).toEqual([[2, 3, false], [3, 1, false]]);
    expect(safety().blocked).toEqual([]);
  });

  it('mutes at once and goes back when the server refuses', async () => {
    api.setConversationMuted.mockResolvedValueOnce({ user_id: 3, muted: true });
    const muting = safety().setMuted(3, true);
    expect(rows()).toEqual([[2, 3, false], [3, 1, true]]);
    expect(await muting).toEqual({ ok: true });

    api.setConversationMuted.mockRejectedValueOnce(new Error('Conversation not found.'));
    expect(await safety().setMuted(2, true)).toEqual({ ok: false, error: 'Conversation not found.' });
    expect(rows()).toEqual([[2, 3, false], [3, 1, true]]);
  });

  it('applies what another device changed: a block, a mute, who can message me', () => {
    safety().applyChange({ type: 'mute', user_id: 2, muted: true });
    expect(rows()).toEqual([[2, 3, true], [3, 1, false]]);
    safety().applyChange({ type: 'block', user_id: 3, blocked: true });
    expect(rows()).toEqual([[2, 3, true]]);
    safety().applyChange({ type: 'message_policy', message_policy: 'nobody' });
    expect(useSessionStore.getState().user?.message_policy).toBe('nobody');
    safety().applyChange({ type: 'privacy', show_presence: false, read_receipts: false });
    expect(useSessionStore.getState().user).toMatchObject({ message_policy: 'nobody', show_presence: false, read_receipts: false });
    expect(useSessionStore.getState().user).not.toHaveProperty('type');
  });

  it('an unblock elsewhere reads the list again, so the conversation comes back with the server’s badge', async () => {
    safety().applyChange({ type: 'block', user_id: 3, blocked: true });
    api.listConversations.mockResolvedValue({ results: [summary(3, conversationMessage(1, { sender_id: 3 }), 1)], next_cursor: null, account_cursor: '0.1.0.0' });
    safety().applyChange({ type: 'block', user_id: 3, blocked: false });
    await vi.waitFor(() => expect(rows()).toEqual([[2, 3, false], [3, 1, false]]));
  });
});
