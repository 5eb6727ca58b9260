import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { Composer } from './composer';

function setup() {
  const onSend = vi.fn<(text: string) => void>();
  const user = userEvent.setup();
  render(<Composer onSend={onSend} placeholder="Message Ada…" />);
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
  return { onSend, user, box, send };
}

describe('Composer', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(cleanup);

  it('sends the trimmed text on Enter and empties the box', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, '  hello there  {Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('hello there');
    expect(box.value).toBe('');
  });

  it('Shift+Enter starts a new line instead of sending', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, 'first{Shift>}{Enter}{/Shift}second');
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('first\nsecond');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('first\nsecond');
  });

  it('cannot send an empty or blank message', async () => {
    const { onSend, user, box, send } = setup();
    expect(send.disabled).toBe(true);
    await user.type(box, '   {Enter}');
    expect(send.disabled).toBe(true);
    expect(onSend).not.toHaveBeenCalled();
    await user.type(box, 'x');
    expect(send.disabled).toBe(false);
    await user.click(send);
    expect(onSend).toHaveBeenCalledExactlyOnceWith('x');
  });

  it('counts down near the limit, then explains a message that is too long and refuses it', async () => {
    const { onSend, user, box, send } = setup();
    await user.click(box);
    await user.paste('a'.repeat(MAX_MESSAGE_LENGTH - 1));
    expect(screen.getByText('1 character left')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    await user.paste('bb');
    expect(screen.getByRole('alert').textContent).toBe('Message is too long: 4,001 of 4,000 characters.');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(send.disabled).toBe(true);
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toHaveLength(MAX_MESSAGE_LENGTH + 1);

    await user.keyboard('{Backspace}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(send.disabled).toBe(false);
  });

  it('shows no counter for an ordinary message', async () => {
    const { user, box } = setup();
    await user.type(box, 'short');
    expect(screen.queryByText(/characters? left/)).toBeNull();
  });
});
