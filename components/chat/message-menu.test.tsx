import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n/index';
import { useEditStore } from '@/lib/stores/edit-store';
import { fromServer, type ThreadMessage } from '@/lib/stores/thread-messages';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';

const actions = vi.hoisted(() => ({
  reactToMessage: vi.fn(async (_id: number, emoji: string): Promise<{ ok: true } | { ok: false; error: string }> =>
    emoji === '🙏' ? { ok: false, error: 'Message not found.' } : { ok: true },
  ),
  editMessage: vi.fn(async () => ({ ok: true as const })),
  unsendMessage: vi.fn(async () => ({ ok: true as const })),
  withinWindow: vi.fn(() => true),
}));
vi.mock('@/lib/realtime/change-requests', () => actions);
vi.mock('@/lib/realtime/messaging-session', () => ({ retryMessage: vi.fn(), deleteForMe: vi.fn() }));

const now = new Date().toISOString();
const mine = (fields: Partial<ThreadMessage> = {}): ThreadMessage => ({
  ...fromServer(message(1, { sender_id: ME, recipient_id: 2, text: 'hello', created_at: now })),
  ...fields,
});
const theirs = (): ThreadMessage => fromServer(message(2, { text: 'hi', created_at: now }));
const itemNames = () => within(screen.getByRole('menu', { name: 'Message actions' })).getAllByRole('menuitem').map((item) => item.getAttribute('aria-label') ?? item.textContent);

describe('the message actions menu', () => {
  beforeEach(async () => {
    await initI18n('en');
    useEditStore.getState().stopEditing();
  });
  afterEach(cleanup);

  it('offers reactions, edit, delete and unsend on one’s own message, report on someone else’s', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<MessageItem message={mine()} own language="en" me={ME} peerName="Ada" />);
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    expect(itemNames()).toEqual([
      'React with 👍', 'React with ❤️', 'React with 😂', 'React with 😮', 'React with 😢', 'React with 🙏',
      'Reply', 'More reactions…', 'Copy text', 'Edit', 'Delete for me', 'Unsend for everyone',
    ]);
    unmount();
    render(<MessageItem message={theirs()} own={false} language="en" me={ME} peerName="Ada" />);
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    expect(itemNames()).toEqual([
      'React with 👍', 'React with ❤️', 'React with 😂', 'React with 😮', 'React with 😢', 'React with 🙏',
      'Reply', 'More reactions…', 'Copy text', 'Delete for me', 'Report',
    ]);
  });

  it('is used by keyboard: arrows move, Escape closes and gives focus back, Enter acts', async () => {
    const user = userEvent.setup();
    render(<MessageItem message={mine()} own language="en" me={ME} peerName="Ada" />);
    const button = screen.getByRole('button', { name: 'Message actions' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('React with 👍');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('React with 😂');
    await user.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Unsend for everyone');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(actions.reactToMessage).toHaveBeenCalledWith(1, '👍', true);
  });

  it('shows deleted and edited messages as such, with only "Delete for me" on a deleted one', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<MessageItem message={mine({ edited_at: now })} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByText('edited')).toBeTruthy();
    unmount();
    render(<MessageItem message={mine({ deleted: true, text: '' })} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByText('Message deleted')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    expect(itemNames()).toEqual(['Delete for me']);
  });

  it('says plainly when the server refuses a change', async () => {
    const user = userEvent.setup();
    render(<MessageItem message={theirs()} own={false} language="en" me={ME} peerName="Ada" />);
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'React with 🙏' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not change the message: Message not found.');
  });

  it('names each reaction with its count and who, pressed when it is the user’s', () => {
    const reactions = [{ emoji: '👍', user_ids: [2, ME] }, { emoji: '😂', user_ids: [2] }];
    render(<MessageItem message={mine({ reactions })} own language="en" me={ME} peerName="Ada" />);
    expect(screen.getByRole('button', { name: '👍 2: Ada, You. Press to add or remove yours.' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: '😂 1: Ada. Press to add or remove yours.' }).getAttribute('aria-pressed')).toBe('false');
  });
});
