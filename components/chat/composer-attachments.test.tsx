// The composer's file, past the upload: the same size in the chip and its refusal, a thumbnail of
// an image before it is sent, and an upload not sent deleted from the server (removed, replaced,
// left behind by closing the conversation or the page), never one that was sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deleteUpload, uploadFile } from '@/lib/api/uploads';
import type { Attachment } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { Composer } from './composer';

vi.mock('@/lib/api/uploads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/api/uploads')>();
  return { ...actual, uploadFile: vi.fn(), deleteUpload: vi.fn() };
});

const upload = vi.mocked(uploadFile);
const remove = vi.mocked(deleteUpload);
const stored = (id: string): Attachment => ({ id, name: `${id}.png`, mime_type: 'image/png', size: 2048, width: 4, height: 3, url: `/api/uploads/${id}/${id}.png` });

function file(name: string, type: string, size = 2048): File {
  const picked = new File(['x'], name, { type });
  Object.defineProperty(picked, 'size', { value: size });
  return picked;
}

function setup() {
  const onSend = vi.fn<(text: string, attachment?: Attachment) => void>();
  const user = userEvent.setup();
  const view = render(<Composer onSend={onSend} placeholder="Message Ada…" />);
  const input = screen.getByLabelText('Choose a file to attach');
  const pick = async (picked: File) => user.upload(input, picked);
  return { onSend, user, pick, unmount: view.unmount };
}

describe('Composer: the attached file', () => {
  let ids = 0;
  beforeEach(async () => {
    await initI18n('en');
    ids = 0;
    upload.mockReset();
    upload.mockImplementation(() => Promise.resolve(stored(`u${(ids += 1)}`)));
    remove.mockReset();
    remove.mockResolvedValue(undefined);
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(cleanup);

  it('shows a file just over the limit with the same size in the chip as in the refusal', async () => {
    const { pick } = setup();
    await pick(file('film.mov', 'video/quicktime', 50_000_001));
    expect(screen.getByRole('alert').textContent).toBe('“film.mov” is 50.1 MB. Files can be at most 50 MB.');
    expect(screen.getByText('50.1 MB')).toBeTruthy();
    expect(screen.queryByText('50 MB')).toBeNull();
  });

  it('shows a thumbnail of an image before it is sent, and none for another file', async () => {
    const { pick } = setup();
    await pick(file('cat.png', 'image/png'));
    const thumbnail = await screen.findByRole('img', { name: 'Preview of cat.png' });
    expect(thumbnail.getAttribute('src')).toBe('blob:preview');
    // Its box is fixed before it decodes.
    expect([thumbnail.getAttribute('width'), thumbnail.getAttribute('height')]).toEqual(['48', '48']);

    await pick(file('notes.txt', 'text/plain'));
    expect(screen.queryByRole('img', { name: /Preview/ })).toBeNull();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it('deletes an upload removed before sending, or replaced by another file', async () => {
    const { pick, user } = setup();
    await pick(file('one.png', 'image/png'));
    await screen.findByText('one.png is ready to send.');
    await pick(file('two.png', 'image/png'));
    expect(remove.mock.calls).toEqual([['u1']]);
    await screen.findByText('two.png is ready to send.');
    await user.click(screen.getByRole('button', { name: 'Remove attachment' }));
    expect(remove.mock.calls).toEqual([['u1'], ['u2']]);
    expect(screen.queryByText('two.png')).toBeNull();
  });

  it('never deletes an upload that was sent', async () => {
    const { pick, user, onSend, unmount } = setup();
    await pick(file('cat.png', 'image/png'));
    await screen.findByText('cat.png is ready to send.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledExactlyOnceWith('', stored('u1'));
    unmount();
    window.dispatchEvent(new Event('pagehide'));
    expect(remove).not.toHaveBeenCalled();
  });

  it('deletes an upload left in the box when the conversation closes, or the page', async () => {
    const first = setup();
    await first.pick(file('left.png', 'image/png'));
    await screen.findByText('left.png is ready to send.');
    first.unmount();
    expect(remove.mock.calls).toEqual([['u1']]);

    const second = setup();
    await second.pick(file('closing.png', 'image/png'));
    await screen.findByText('closing.png is ready to send.');
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(remove.mock.calls).toEqual([['u1'], ['u2']]);
    // Back from the back/forward cache: the file is no longer offered for sending.
    expect(screen.queryByText('closing.png')).toBeNull();
  });
});
