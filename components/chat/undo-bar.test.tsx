import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { useHidingStore } from '@/lib/stores/hiding-store';
import { UndoBar } from './undo-bar';

const session = vi.hoisted(() => ({ undoDeleteForMe: vi.fn(() => true) }));
vi.mock('@/lib/realtime/session-start', () => ({ loadMessagingSession: async () => session }));

describe('the Undo of "Delete for me"', () => {
  beforeEach(async () => {
    await initI18n('en');
    useHidingStore.getState().reset();
  });
  afterEach(cleanup);

  it('offers the latest deletion while it can be undone, with the focus on Undo', async () => {
    render(
      <main>
        <textarea aria-label="Message" />
        <UndoBar />
      </main>,
    );
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    act(() => useHidingStore.getState().add({ messageId: 5, peerId: 2, undoable: true }));
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(screen.getByRole('status').textContent).toBe('Message deleted for you.');
    expect(undo.getAttribute('aria-describedby')).toBe(screen.getByRole('status').id);
    expect(document.activeElement).toBe(undo);
    await userEvent.setup().click(undo);
    await vi.waitFor(() => expect(session.undoDeleteForMe).toHaveBeenCalledExactlyOnceWith(5));

    // Its time over (it is being sent): the bar goes, and the focus on to the message box.
    act(() => useHidingStore.getState().lockIn(5));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });
});
