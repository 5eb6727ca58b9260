// Deleting from a message's menu: "Delete for me" goes through the delayed deletion (with its
// Undo), and the Unsend confirmation speaks of a file only when the message has one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { deleteForMe } from '@/lib/realtime/messaging-session';
import { fromServer, type ThreadMessage } from '@/lib/stores/thread-messages';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';

vi.mock('@/lib/realtime/change-requests', () => ({
  reactToMessage: vi.fn(),
  unsendMessage: vi.fn(async () => ({ ok: true as const })),
  withinWindow: vi.fn(() => true),
}));
vi.mock('@/lib/realtime/messaging-session', () => ({ retryMessage: vi.fn(), deleteForMe: vi.fn() }));

const now = new Date().toISOString();
const mine = (fields: Partial<ThreadMessage> = {}): ThreadMessage => ({
  ...fromServer(message(7, { sender_id: ME, recipient_id: 2, text: 'hello', created_at: now })),
  ...fields,
});
const file = { id: 'f1', name: 'plan.pdf', mime_type: 'application/pdf', size: 1200, width: null, height: null, url: '/api/uploads/f1/plan.pdf' };

async function openMenuItem(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Message actions' }));
  await user.click(screen.getByRole('menuitem', { name }));
}

describe('deleting a message', () => {
  beforeEach(async () => {
    await initI18n('en');
    vi.mocked(deleteForMe).mockReset();
  });
  afterEach(cleanup);

  it('"Delete for me" hands the message to the delayed deletion, with its conversation', async () => {
    render(<MessageItem message={mine()} own language="en" me={ME} peerName="Ada" />);
    await openMenuItem('Delete for me');
    expect(deleteForMe).toHaveBeenCalledExactlyOnceWith(2, 7);
  });

  it('asks before unsending, naming the attached file only when there is one', async () => {
    const { unmount } = render(<MessageItem message={mine()} own language="en" me={ME} peerName="Ada" />);
    await openMenuItem('Unsend for everyone');
    const textOnly = screen.getByRole('dialog', { name: 'Unsend this message?' });
    expect(textOnly.textContent).toContain('It will be removed for both of you and replaced by “Message deleted”.');
    expect(textOnly.textContent).not.toContain('file');
    unmount();

    render(<MessageItem message={mine({ attachment: file })} own language="en" me={ME} peerName="Ada" />);
    await openMenuItem('Unsend for everyone');
    expect(screen.getByRole('dialog', { name: 'Unsend this message?' }).textContent).toContain('Its attached file is deleted too.');
  });
});
