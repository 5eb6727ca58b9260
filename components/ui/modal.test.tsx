import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { initI18n } from '@/lib/i18n';
import { Modal } from './modal';

/** A button that opens a dialog; `vanish`: the button goes away while the dialog is open (a menu closing). */
function Opener({ vanish = false }: { vanish?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Fallback</button>
      {vanish && open ? null : (
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
      )}
      {open ? (
        <Modal title="Dialog" onClose={() => setOpen(false)} returnFocusTo={() => screen.getByRole('button', { name: 'Fallback' })}>
          <button type="button">Inside</button>
        </Modal>
      ) : null}
    </>
  );
}

describe('Modal', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(cleanup);

  it('gives the focus back to the button that opened it when it closes', async () => {
    render(<Opener />);
    const open = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(open);
    screen.getByRole('button', { name: 'Inside' }).focus();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('gives it to returnFocusTo when the opener is gone', async () => {
    render(<Opener vanish />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Fallback' }));
  });
});
