import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { useReplyStore } from '@/lib/stores/reply-store';
import { fromServer, type ThreadMessage } from '@/lib/stores/thread-messages';
import { emptyThread } from '@/lib/stores/thread-model';
import { useThreadStore } from '@/lib/stores/thread-store';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';

vi.mock('@/lib/realtime/messaging-session', () => ({ retryMessage: vi.fn() }));
vi.mock('@/lib/api/conversations', () => ({ listMessages: vi.fn(), listMessagesAround: vi.fn(), listConversations: vi.fn() }));

const now = new Date().toISOString();
const original = fromServer(message(1, { text: 'Dinner at eight?\nOr nine', created_at: now }));
const reply = (fields: Partial<ThreadMessage> = {}): ThreadMessage => ({
  ...fromServer(
    message(2, {
      sender_id: ME,
      recipient_id: 2,
      text: 'Eight is fine',
      created_at: now,
      reply_to: { id: 1, sender_id: 2, text: 'Dinner at eight?\nOr nine', deleted: false, attachment: null },
    }),
  ),
  ...fields,
});

describe('replies in the thread', () => {
  beforeEach(async () => {
    await initI18n('en');
    useThreadStore.setState({ threads: {} });
    useReplyStore.setState({ replying: {} });
  });
  afterEach(cleanup);

  it('"Reply" in the menu quotes the message for the composer', async () => {
    const user = userEvent.setup();
    render(<MessageItem message={original} own={false} language="en" me={ME} peerName="Ada" />);
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Reply' }));
    expect(useReplyStore.getState().replying[2]).toEqual({ id: 1, sender_id: 2, text: 'Dinner at eight?\nOr nine', deleted: false, attachment: null });
  });

  it('shows the first line of the quote, the held original as it is now, and opens the original', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<MessageItem message={reply()} own language="en" me={ME} peerName="Ada" />);
    const quote = screen.getByRole('button', { name: /^Reply to\s*Ada\s*Dinner at eight\?$/, description: 'Shows the original message.' });
    expect(quote.textContent).toBe('Reply to AdaDinner at eight?');

    // The thread holds the original, edited and then unsent: the quote follows it.
    useThreadStore.setState({ threads: { 2: { ...emptyThread, messages: [{ ...original, text: 'Lunch instead?' }], status: 'ready' } } });
    rerender(<MessageItem message={reply()} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByRole('button', { name: /^Reply to\s*Ada\s*Lunch instead\?$/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Reply to\s*Ada/ }));
    expect(useThreadStore.getState().threads[2]?.focus).toMatchObject({ id: 1 });

    useThreadStore.setState((state) => ({ threads: { 2: { ...state.threads[2]!, messages: [{ ...original, deleted: true, text: '' }] } } }));
    rerender(<MessageItem message={reply()} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByRole('button', { name: /^Reply to\s*Ada\s*Message deleted$/ })).toBeTruthy();
  });

  it('labels an attachment without text, and an unsent original from the payload', () => {
    render(
      <MessageItem
        message={reply({ reply_to: { id: 9, sender_id: ME, text: '', deleted: false, attachment: { name: 'cat.png', mime_type: 'image/png' } } })}
        own
        language="en"
        me={ME}
        peerName="Ada"
      />,
    );
    expect(screen.getByRole('button', { name: /^Reply to\s*You\s*Photo$/ })).toBeTruthy();
    cleanup();
    render(<MessageItem message={reply({ reply_to: { id: 9, sender_id: 2, text: '', deleted: true, attachment: null } })} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByRole('button', { name: /^Reply to\s*Ada\s*Message deleted$/ })).toBeTruthy();
  });
});
