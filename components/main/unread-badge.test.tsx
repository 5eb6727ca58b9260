import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { initI18n } from '@/lib/i18n';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { conversation, message } from '@/lib/testing/fixtures';
import { UnreadBadge } from './unread-badge';

describe('UnreadBadge', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(cleanup);

  it.each([
    [0, '0 unread messages'],
    [1, '1 unread message'],
    [3, '3 unread messages'],
    [1200, '1,200 unread messages'],
  ])('%d reads "%s" and shows the number', (count, label) => {
    useCounterStore.getState().setUnread(count);
    render(<UnreadBadge />);
    expect(screen.getByTestId('unread-count').textContent).toBe(String(count));
    expect(screen.getByText(label)).toBeTruthy();
  });

  it('follows the counter store live', () => {
    useCounterStore.getState().setUnread(1);
    render(<UnreadBadge />);
    act(() => useCounterStore.getState().incrementUnread());
    expect(screen.getByTestId('unread-count').textContent).toBe('2');
    expect(screen.getByText('2 unread messages')).toBeTruthy();
  });

  it('uses the plural rules of the UI language', async () => {
    await initI18n('fr');
    useCounterStore.getState().setUnread(1);
    const { rerender } = render(<UnreadBadge />);
    expect(screen.getByText('1 message non lu')).toBeTruthy();
    act(() => useCounterStore.getState().setUnread(5));
    rerender(<UnreadBadge />);
    expect(screen.getByText('5 messages non lus')).toBeTruthy();
  });

  it('marks an empty count so the pill is hidden, keeping the sentence for assistive technology', () => {
    render(<UnreadBadge />);
    expect(screen.getByTitle('0 unread messages').dataset.empty).toBe('true');
    expect(screen.getByText('0 unread messages').className).toBe('visually-hidden');
    act(() => useCounterStore.getState().setUnread(2));
    expect(screen.getByTitle('2 unread messages').dataset.empty).toBe('false');
  });

  it('keeps the spec’s total but is grey (quiet) when every unread message is in a muted conversation', () => {
    useConversationsStore.setState({ conversations: [conversation(2, message(1), 2, true), conversation(3, message(2, { sender_id: 3 }), 1)] });
    useCounterStore.getState().setUnread(3);
    render(<UnreadBadge />);
    expect(screen.getByTestId('unread-count').textContent).toBe('3');
    expect(screen.getByTitle('3 unread messages').dataset.quiet).toBe('false');
    act(() => useConversationsStore.setState({ conversations: [conversation(2, message(1), 2, true), conversation(3, message(2, { sender_id: 3 }), 0)] }));
    act(() => useCounterStore.getState().setUnread(2));
    expect(screen.getByTestId('unread-count').textContent).toBe('2');
    expect(screen.getByTitle('2 unread messages').dataset.quiet).toBe('true');
  });
});
