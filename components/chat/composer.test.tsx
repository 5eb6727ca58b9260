import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UploadCancelledError, UploadError, uploadFile, type UploadOptions } from '@/lib/api/uploads';
import { MAX_MESSAGE_LENGTH, type Attachment } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { deferred, type Deferred } from '@/lib/testing/deferred';
import { readMirror } from '@/lib/drafts/draft-mirror';
import { appDrafts } from '@/lib/drafts/drafts';
import { Composer } from './composer';

vi.mock('@/lib/api/uploads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/api/uploads')>();
  return { ...actual, uploadFile: vi.fn() };
});

function setup() {
  const onSend = vi.fn<(text: string, attachment?: Attachment) => void>();
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

describe('Composer attachments', () => {
  const upload = vi.mocked(uploadFile);
  let pending: Deferred<Attachment>;
  let options: UploadOptions;
  const stored: Attachment = { id: 'a1', name: 'cat.png', mime_type: 'image/png', size: 2048, width: 4, height: 3, url: '/api/uploads/a1/cat.png' };

  function pngFile(name = 'cat.png', size = 2048): File {
    const file = new File(['png'], name, { type: 'image/png' });
    Object.defineProperty(file, 'size', { value: size });
    return file;
  }

  beforeEach(async () => {
    await initI18n('en');
    pending = deferred<Attachment>();
    upload.mockReset();
    upload.mockImplementation((_file, uploadOptions = {}) => {
      options = uploadOptions;
      return pending.promise;
    });
  });
  afterEach(cleanup);

  it('has an attach button and a labelled file input', () => {
    setup();
    expect(screen.getByRole('button', { name: 'Attach file' })).toBeTruthy();
    expect((screen.getByLabelText('Choose a file to attach') as HTMLInputElement).type).toBe('file');
  });

  it('refuses a file over the limit at once, with its name and size, and never uploads it', async () => {
    const { user, send } = setup();
    await user.upload(screen.getByLabelText('Choose a file to attach'), pngFile('film.mov', 52_500_000));
    expect(screen.getByRole('alert').textContent).toBe('“film.mov” is 52.5 MB. Files can be at most 50 MB.');
    expect(upload).not.toHaveBeenCalled();
    expect(send.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove attachment' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the upload progress, keeps Send disabled meanwhile, then sends the attachment without text', async () => {
    const { onSend, user, send } = setup();
    await user.upload(screen.getByLabelText('Choose a file to attach'), pngFile());
    expect(upload).toHaveBeenCalledOnce();
    expect(upload.mock.calls[0]?.[0].name).toBe('cat.png');
    expect(screen.getByText('cat.png')).toBeTruthy();
    expect(screen.getByText('2 kB')).toBeTruthy();

    act(() => options.onProgress?.(0.4));
    const bar = screen.getByRole('progressbar', { name: 'Uploading cat.png: 40%' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(send.disabled).toBe(true);

    await act(async () => pending.resolve(stored));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('cat.png is ready to send.');
    expect(send.disabled).toBe(false);
    await user.click(send);
    expect(onSend).toHaveBeenCalledExactlyOnceWith('', stored);
    expect(screen.queryByText('cat.png')).toBeNull();
  });

  it('sends the text with the attachment', async () => {
    const { onSend, user, box } = setup();
    await user.upload(screen.getByLabelText('Choose a file to attach'), pngFile());
    await act(async () => pending.resolve(stored));
    await user.type(box, 'look {Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('look', stored);
  });

  it('cancels: aborts the upload and says so, with a retry', async () => {
    const { user } = setup();
    await user.upload(screen.getByLabelText('Choose a file to attach'), pngFile());
    const signal = options.signal;
    signal?.addEventListener('abort', () => pending.reject(new UploadCancelledError()));
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(signal?.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();

    pending = deferred<Attachment>();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(upload).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });

  it('shows a failed upload’s message, and removes it', async () => {
    const { user, send } = setup();
    await user.upload(screen.getByLabelText('Choose a file to attach'), pngFile());
    const error = new UploadError('The file is larger than 50 MB.', { status: 413, statusText: 'Payload Too Large' }, { msg: 'The file is larger than 50 MB.' });
    await act(async () => pending.reject(error));
    expect(screen.getByRole('alert').textContent).toBe('Upload failed: That is too large to send.');
    expect(send.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove attachment' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reports each change of the text as typed, and leaving the box', async () => {
    const onSend = vi.fn();
    const onTextChange = vi.fn<(text: string) => void>();
    const onBlur = vi.fn();
    const user = userEvent.setup();
    render(<Composer onSend={onSend} onTextChange={onTextChange} onBlur={onBlur} placeholder="Message Ada…" />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'hi');
    expect(onTextChange.mock.calls.map(([text]) => text)).toEqual(['h', 'hi']);
    await user.keyboard('{Backspace}{Backspace}');
    expect(onTextChange).toHaveBeenLastCalledWith('');
    await user.tab();
    expect(onBlur).toHaveBeenCalled();
  });

  it('takes the focus when it opens, unless the person is typing in another field', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Composer onSend={vi.fn()} placeholder="Message Ada…" autoFocus />);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    unmount();

    // A reload opens the conversation in the address while the person already types a search.
    const search = document.createElement('input');
    search.type = 'search';
    search.setAttribute('aria-label', 'Search people');
    document.body.append(search);
    search.focus();
    render(<Composer onSend={vi.fn()} placeholder="Message Ada…" autoFocus />);
    expect(document.activeElement).toBe(search);
    await user.keyboard('Ada');
    expect(search.value).toBe('Ada');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
    search.remove();

    // A button (the conversation's row, clicked) gives the focus up to it.
    const row = document.createElement('button');
    document.body.append(row);
    row.focus();
    cleanup();
    render(<Composer onSend={vi.fn()} placeholder="Message Ada…" autoFocus />);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    row.remove();
  });
});

describe('Composer: files pasted or dropped, and drafts', () => {
  const upload = vi.mocked(uploadFile);
  beforeEach(async () => {
    upload.mockReset();
    upload.mockReturnValue(new Promise(() => undefined));
    await initI18n('en');
  });
  afterEach(cleanup);

  it('a pasted image is attached like a picked file, and the paste adds no text', async () => {
    const { box } = setup();
    const image = new File([new Uint8Array(10)], 'screenshot.png', { type: 'image/png' });
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.assign(paste, { clipboardData: { files: [image], getData: () => '' } });
    act(() => void box.dispatchEvent(paste));
    expect(paste.defaultPrevented).toBe(true);
    expect(upload.mock.calls[0]?.[0]).toBe(image);
    expect(screen.getByText('screenshot.png')).toBeTruthy();
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });

  it('a file dropped on the conversation is attached, with the same size check', async () => {
    render(
      <section>
        <p>the thread</p>
        <Composer onSend={vi.fn()} placeholder="Message Ada…" />
      </section>,
    );
    const zone = screen.getByText('the thread').closest('section')!;
    const big = new File([], 'huge.iso');
    Object.defineProperty(big, 'size', { value: 52_500_000 });
    const dataTransfer = { types: ['Files'], files: [big], dropEffect: 'none' };
    const fire = (type: string) => {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.assign(event, { dataTransfer });
      act(() => void zone.dispatchEvent(event));
      return event;
    };
    fire('dragenter');
    expect(screen.getByText('Drop a file to attach it')).toBeTruthy();
    expect(fire('dragover').defaultPrevented).toBe(true);
    expect(fire('drop').defaultPrevented).toBe(true);
    expect(screen.queryByText('Drop a file to attach it')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('“huge.iso” is 52.5 MB. Files can be at most 50 MB.');
    expect(upload).not.toHaveBeenCalled();
  });

  it('keeps the text as the conversation’s draft: back when it opens again, gone once sent', async () => {
    const user = userEvent.setup();
    const key = { userId: 7, peerId: 2 };
    const first = render(<Composer onSend={vi.fn()} placeholder="…" draftKey={key} />);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'half a thought');
    first.unmount();
    render(<Composer onSend={vi.fn()} placeholder="…" draftKey={{ userId: 7, peerId: 3 }} />);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
    cleanup();

    render(<Composer onSend={vi.fn()} placeholder="…" draftKey={key} />);
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    await vi.waitFor(() => expect(box.value).toBe('half a thought'));
    await user.type(box, '{Enter}');
    cleanup();
    render(<Composer onSend={vi.fn()} placeholder="…" draftKey={key} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps every key in this tab the moment it lands, before the typing delay (a reload right after it)', async () => {
    const user = userEvent.setup();
    render(<Composer onSend={vi.fn()} placeholder="…" draftKey={{ userId: 9, peerId: 2 }} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'and more');
    // No wait: what a page that reloads now would find.
    expect(readMirror(9, 2)?.text).toBe('and more');
    await user.clear(box);
    expect(readMirror(9, 2)?.text).toBe('');
  });

  it('removes the draft the moment the text is sent, before the typing delay (a reload right after sending)', async () => {
    const user = userEvent.setup();
    const key = { userId: 8, peerId: 2 };
    render(<Composer onSend={vi.fn()} placeholder="…" draftKey={key} />);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'on the train');
    await vi.waitFor(async () => expect((await appDrafts().load(8, 2))?.text).toBe('on the train'));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '{Enter}');
    // Still mounted, no page hide: nothing but the send itself removed it.
    expect(await appDrafts().load(8, 2)).toBeNull();
  });
});
