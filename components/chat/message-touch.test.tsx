import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { fromServer, type ThreadMessage } from '@/lib/stores/thread-messages';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';
import { LONG_PRESS_MS } from './use-long-press';

vi.mock('@/lib/realtime/change-requests', () => ({
  reactToMessage: vi.fn(async () => ({ ok: true as const })),
  hideMessage: vi.fn(async () => ({ ok: true as const })),
  unsendMessage: vi.fn(async () => ({ ok: true as const })),
  withinWindow: vi.fn(() => true),
}));
vi.mock('@/lib/realtime/messaging-session', () => ({ retryMessage: vi.fn() }));

const theirs = (): ThreadMessage => fromServer(message(2, { text: 'see https://example.com soon', created_at: new Date().toISOString() }));
const menu = () => screen.queryByRole('menu', { name: 'Message actions' });
const bubbleText = () => screen.getByText(/^see/);

describe('a message on a touch screen', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(() => {
    vi.useRealTimers();
    cleanup();
  });

  it('opens its actions after a finger rests on it, not after a tap, a mouse press or a scroll', () => {
    vi.useFakeTimers();
    render(<MessageItem message={theirs()} own={false} language="en" me={ME} peerName="Ada" />);
    const press = (pointerType: string, moveBy = 0) => {
      fireEvent.pointerDown(bubbleText(), { pointerType, clientX: 10, clientY: 10 });
      if (moveBy) fireEvent.pointerMove(bubbleText(), { pointerType, clientX: 10, clientY: 10 + moveBy });
      act(() => vi.advanceTimersByTime(LONG_PRESS_MS - 1));
      return () => {
        act(() => vi.advanceTimersByTime(1));
        fireEvent.pointerUp(bubbleText(), { pointerType });
      };
    };

    press('touch')(); // held long enough
    expect(menu()).not.toBeNull();
    fireEvent.keyDown(menu()!, { key: 'Escape' });
    expect(menu()).toBeNull();

    fireEvent.pointerDown(bubbleText(), { pointerType: 'touch', clientX: 10, clientY: 10 });
    fireEvent.pointerUp(bubbleText(), { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(menu()).toBeNull(); // a tap

    press('mouse')();
    expect(menu()).toBeNull();
    press('touch', 40)(); // the list scrolled under the finger
    expect(menu()).toBeNull();
  });

  it('leaves a long press on a link to the browser, and keeps the browser’s menu away from ours', () => {
    vi.useFakeTimers();
    render(<MessageItem message={theirs()} own={false} language="en" me={ME} peerName="Ada" />);
    fireEvent.pointerDown(screen.getByRole('link'), { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(menu()).toBeNull();

    // The browser's long-press sign may come first: it opens ours, once, and not its own.
    fireEvent.pointerDown(bubbleText(), { pointerType: 'touch' });
    expect(fireEvent.contextMenu(bubbleText())).toBe(false);
    expect(menu()).not.toBeNull();
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    // A right click is the browser's.
    fireEvent.pointerUp(bubbleText(), { pointerType: 'touch' });
    fireEvent.pointerDown(bubbleText(), { pointerType: 'mouse', button: 2 });
    expect(fireEvent.contextMenu(bubbleText())).toBe(true);
  });

  it('offers the text to copy, since the long press no longer selects it; a refusal is said', async () => {
    const user = userEvent.setup();
    render(<MessageItem message={theirs()} own={false} language="en" me={ME} peerName="Ada" />);
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy text' }));
    expect(await navigator.clipboard.readText()).toBe('see https://example.com soon');

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError'));
    await user.click(screen.getByRole('button', { name: 'Message actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy text' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The text could not be copied.');
  });
});
