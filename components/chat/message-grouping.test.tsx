import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { fromServer } from '@/lib/stores/thread-messages';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';
import { sameGroup } from './message-list';

vi.mock('@/lib/realtime/messaging-session', () => ({ retryMessage: vi.fn() }));

const at = (id: number, minute: number, sender = 2) => fromServer(message(id, { minute, sender_id: sender, recipient_id: sender === ME ? 2 : ME }));

describe('messages grouped by sender and time', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(cleanup);

  it('one sender within five minutes is one group; another sender or a longer pause starts a new one', () => {
    expect(sameGroup(at(1, 0), at(2, 5))).toBe(true);
    expect(sameGroup(at(1, 0), at(2, 6))).toBe(false);
    expect(sameGroup(at(1, 0), at(2, 1, ME))).toBe(false);
    expect(sameGroup(at(1, 0), undefined)).toBe(false);
  });

  it('only the group’s last message shows the time; the others keep it, and the sender, for screen readers', () => {
    render(
      <>
        <MessageItem message={at(1, 0)} own={false} language="en" sender="Ada:" groupEnd={false} />
        <MessageItem message={at(2, 1)} own={false} language="en" sender="Ada:" continued />
      </>,
    );
    const [first, last] = document.querySelectorAll('[data-group-end]');
    expect(first?.getAttribute('data-group-end')).toBe('false');
    expect(last?.getAttribute('data-group-end')).toBe('true');
    expect(first?.querySelector('.visually-hidden time')).not.toBeNull();
    expect(last?.querySelector('.visually-hidden time')).toBeNull();
    expect(screen.getAllByText('Ada:', { exact: false })).toHaveLength(2);
  });

  it('an own message not sent yet shows its status even inside a group', () => {
    const sending = { ...at(1, 0, ME), id: null, status: 'sending' as const };
    render(<MessageItem message={sending} own language="en" sender="You:" groupEnd={false} />);
    expect(document.querySelector('[data-group-end]')?.getAttribute('data-group-end')).toBe('true');
  });
});
