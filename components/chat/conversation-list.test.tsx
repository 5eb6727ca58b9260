import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { usePeopleStore } from '@/lib/stores/people-store';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useTypingStore } from '@/lib/stores/typing-store';
import { emptyThread } from '@/lib/stores/thread-model';
import { useThreadStore } from '@/lib/stores/thread-store';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { conversation, ME, message, user } from '@/lib/testing/fixtures';
import { ConversationList } from './conversation-list';

const routing = vi.hoisted(() => ({ openConversation: vi.fn<(peerId: number) => void>() }));
vi.mock('@/lib/routing/conversation-route', async (importOriginal) => ({ ...(await importOriginal<object>()), ...routing }));

describe('ConversationList', () => {
  beforeEach(async () => {
    routing.openConversation.mockReset();
    publishUser({ id: ME, username: 'Me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true });
    await initI18n('en');
  });
  afterEach(cleanup);

  it('says there are no conversations yet', () => {
    useConversationsStore.setState({ status: 'ready', conversations: [] });
    render(<ConversationList />);
    expect(screen.getByText('No conversations yet.')).toBeTruthy();
  });

  it('shows each person with the last message, its unread badge, and "You:" for the user’s own', () => {
    useConversationsStore.setState({
      status: 'ready',
      conversations: [
        conversation(2, message(5, { text: 'see you\nsoon' }), 3),
        conversation(3, message(4, { sender_id: ME, recipient_id: 3, text: 'thanks' }), 0),
      ],
    });
    render(<ConversationList />);
    const [first, second] = screen.getAllByRole('button');
    expect(within(first!).getByText('user2')).toBeTruthy();
    expect(within(first!).getByText('see you soon')).toBeTruthy();
    expect(within(first!).getByText('3 unread messages')).toBeTruthy();
    expect(within(second!).getByText('You: thanks')).toBeTruthy();
    expect(within(second!).queryByText(/unread/)).toBeNull();
  });

  it('opens a conversation on click, marks the open one, and moves between rows with the arrows', async () => {
    useConversationsStore.setState({
      status: 'ready',
      conversations: [conversation(2, message(5)), conversation(3, message(4, { sender_id: 3 }))],
    });
    useSessionStore.getState().setReceiver(3);
    render(<ConversationList />);
    const [first, second] = screen.getAllByRole('button');
    expect(second!.getAttribute('aria-current')).toBe('true');
    expect(first!.getAttribute('aria-current')).toBeNull();

    await userEvent.click(first!);
    expect(routing.openConversation).toHaveBeenCalledWith(2);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(second);
    await userEvent.keyboard('{Enter}');
    expect(routing.openConversation).toHaveBeenLastCalledWith(3);
  });

  it('names each row for assistive technology: who, the last message, how many are unread', () => {
    useConversationsStore.setState({
      status: 'ready',
      conversations: [conversation(2, message(5, { text: 'lunch?' }), 2), conversation(3, message(4, { sender_id: ME, recipient_id: 3, text: 'ok' }))],
    });
    render(<ConversationList />);
    expect(screen.getByRole('button', { name: /^user2 .* lunch\? 2 unread messages$/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^user3 .* You: ok$/ })).toBeTruthy();
  });

  it('a conversation just opened with someone new is in the list at once, not "No conversations yet."', () => {
    useConversationsStore.setState({ status: 'ready', conversations: [] });
    usePeopleStore.getState().rememberUsers([user(9, { username: 'Grace' })]);
    usePeopleStore.setState({ searchResults: [{ ...user(9, { username: 'Grace' }), can_message: true }] });
    useSessionStore.getState().setReceiver(9);
    render(<ConversationList />);
    expect(screen.queryByText('No conversations yet.')).toBeNull();
    const row = screen.getByRole('button', { name: 'Grace New conversation' });
    expect(row.getAttribute('aria-current')).toBe('true');
  });

  it('an address that names no one gets no row; an open conversation the list left out shows its last message', () => {
    useConversationsStore.setState({ status: 'ready', conversations: [conversation(2, message(5))] });
    useThreadStore.setState({ threads: { 99999: { ...emptyThread, status: 'error', errorKind: 'notFound' } } });
    useSessionStore.getState().setReceiver(99999);
    const { unmount } = render(<ConversationList />);
    expect(screen.queryByText('New conversation')).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(1);
    unmount();

    // Just blocked from the open conversation: the list has no row for them, the thread still has its messages.
    usePeopleStore.setState({ searchResults: [{ ...user(9, { username: 'Grace' }), can_message: true }] });
    useThreadStore.setState({ threads: { 9: { ...emptyThread, status: 'ready', messages: [{ ...message(7, { sender_id: 9, text: 'see you' }), status: 'sent', error: null }] } } });
    useSessionStore.getState().setReceiver(9);
    render(<ConversationList />);
    expect(screen.getByRole('button', { name: 'Grace see you' }).getAttribute('aria-current')).toBe('true');
  });

  it('puts a dot on the avatar of people online, named for screen readers, and says who is typing', () => {
    useConversationsStore.setState({
      status: 'ready',
      conversations: [conversation(2, message(5, { text: 'hi' })), conversation(3, message(4, { sender_id: 3, text: 'yo' }))],
    });
    usePresenceStore.getState().apply({ user_id: 2, online: true, last_seen_at: null });
    usePresenceStore.getState().apply({ user_id: 3, online: false, last_seen_at: '2025-01-01T12:00:00.000Z' });
    useTypingStore.getState().setTyping(3, true);
    render(<ConversationList />);
    const [first, second] = screen.getAllByRole('button');
    expect(first!.textContent).toContain('Online');
    expect(within(first!).getByText('hi')).toBeTruthy();
    expect(second!.textContent).not.toContain('Online');
    expect(within(second!).getByText('typing…')).toBeTruthy();
    expect(within(second!).queryByText('yo')).toBeNull();
  });
});
