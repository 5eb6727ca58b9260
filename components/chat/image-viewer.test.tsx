import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Attachment } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { useHidingStore } from '@/lib/stores/hiding-store';
import { useImageViewerStore } from '@/lib/stores/image-viewer-store';
import { fromServer } from '@/lib/stores/thread-messages';
import { emptyThread } from '@/lib/stores/thread-model';
import { useThreadStore } from '@/lib/stores/thread-store';
import { message } from '@/lib/testing/fixtures';
import { ImageViewer, imagesOf } from './image-viewer';
import { MessageItem } from './message-item';

const image = (id: string, width = 400, height = 300): Attachment => ({ id, name: `${id}.png`, mime_type: 'image/png', size: 1000, width, height, url: `/api/uploads/${id}/${id}.png` });
const notes: Attachment = { id: 'n', name: 'notes.txt', mime_type: 'text/plain', size: 6, width: null, height: null, url: '/api/uploads/n/notes.txt' };
const thread = [
  fromServer(message(1, { attachment: image('a') })),
  fromServer(message(2, { attachment: notes })),
  fromServer(message(3, { attachment: image('b') })),
  fromServer(message(4, { attachment: image('gone'), deleted: true })),
  fromServer(message(5, { attachment: image('c') })),
];

describe('the image viewer', () => {
  beforeEach(async () => {
    await initI18n('en');
    useImageViewerStore.getState().close();
    useHidingStore.getState().reset();
    useThreadStore.setState({ threads: { 2: { ...emptyThread, status: 'ready', messages: thread } } });
  });
  afterEach(cleanup);

  it('steps through the conversation’s images only, oldest first', () => {
    expect(imagesOf(thread).map((shown) => shown.id)).toEqual(['a', 'b', 'c']);
  });

  it('opens from a thumbnail in the thread, named by the image, and steps and zooms with the keyboard', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    render(
      <>
        <MessageItem message={thread[2]!} own={false} language="en" peerName="Ada" />
        <ImageViewer peerId={2} />
      </>,
    );
    const thumbnail = screen.getByRole('button', { name: 'Image: b.png' });
    expect(thumbnail.getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(thumbnail);
    const dialog = screen.getByRole('dialog', { name: 'b.png' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText('2 of 3')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'Image: b.png' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Download b.png' }).getAttribute('download')).toBe('b.png');
    // (A browser's showModal puts the focus in the dialog; jsdom has none.)
    within(dialog).getByRole('button', { name: 'Close' }).focus();

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'c.png' })).toBeTruthy();
    expect(screen.getByText('3 of 3')).toBeTruthy();
    // The last one: "Next" stays in the tab order (the focus never drops out of the dialog) and does nothing.
    const next = screen.getByRole('button', { name: 'Next image' });
    expect(next.getAttribute('aria-disabled')).toBe('true');
    await user.click(next);
    expect(screen.getByRole('dialog', { name: 'c.png' })).toBeTruthy();
    await user.keyboard('{Home}');
    expect(screen.getByRole('dialog', { name: 'a.png' })).toBeTruthy();

    expect(screen.getByRole('status').textContent).toBe('Zoom: 100%');
    await user.keyboard('+');
    expect(screen.getByRole('status').textContent).toBe('Zoom: 150%');
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByRole('status').textContent).toBe('Zoom: 200%');
    await user.keyboard('0');
    expect(screen.getByRole('status').textContent).toBe('Zoom: 100%');
    // Stepping starts the next image fitted.
    await user.keyboard('-{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'b.png' })).toBeTruthy();

    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useImageViewerStore.getState().showing).toBeNull();
  });

  it('lets the keyboard reach a zoomed image, whose arrow keys then scroll it rather than step', async () => {
    const user = userEvent.setup();
    render(<ImageViewer peerId={2} />);
    act(() => useImageViewerStore.getState().show('b'));
    const stage = screen.getByRole('group', { name: 'The image. Zoomed in, the arrow keys move around it.' });
    expect(stage.tabIndex).toBe(-1);
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(stage.getAttribute('tabindex')).toBe('0');
    stage.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'b.png' })).toBeTruthy();
  });

  it('steps with a sideways swipe at the fitted size (a phone), not with a short or mostly vertical one', () => {
    render(<ImageViewer peerId={2} />);
    act(() => useImageViewerStore.getState().show('b'));
    const stage = screen.getByRole('img', { name: 'Image: b.png' }).parentElement!;
    const swipe = (from: [number, number], to: [number, number]) => {
      fireEvent.pointerDown(stage, { button: 0, pointerType: 'touch', clientX: from[0], clientY: from[1] });
      fireEvent.pointerUp(stage, { button: 0, pointerType: 'touch', clientX: to[0], clientY: to[1] });
    };
    swipe([300, 200], [100, 210]);
    expect(screen.getByRole('dialog', { name: 'c.png' })).toBeTruthy();
    swipe([100, 200], [130, 200]);
    swipe([100, 100], [180, 400]);
    expect(screen.getByRole('dialog', { name: 'c.png' })).toBeTruthy();
    swipe([100, 200], [300, 190]);
    expect(screen.getByRole('dialog', { name: 'b.png' })).toBeTruthy();
  });

  it('closes when the image leaves the thread (unsent, deleted for the user)', () => {
    render(<ImageViewer peerId={2} />);
    act(() => useImageViewerStore.getState().show('c'));
    expect(screen.getByRole('dialog', { name: 'c.png' })).toBeTruthy();
    act(() => useHidingStore.getState().add({ messageId: 5, peerId: 2, undoable: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useImageViewerStore.getState().showing).toBeNull();
  });
});
