import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { fromServer, type ThreadMessage } from '@/lib/stores/thread-messages';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { ME, message } from '@/lib/testing/fixtures';
import { MessageItem } from './message-item';

const session = vi.hoisted(() => ({ retryMessage: vi.fn() }));
vi.mock('@/lib/realtime/messaging-session', () => session);

function own(fields: Partial<ThreadMessage>): ThreadMessage {
  return { ...fromServer(message(1, { sender_id: ME, recipient_id: 2, text: 'hello' })), ...fields };
}

describe('MessageItem', () => {
  beforeEach(async () => {
    useConnectionStore.getState().setStatus('connected');
    await initI18n('en');
  });
  afterEach(cleanup);

  it.each([
    ['sending', 'Sending…'],
    ['sent', 'Sent'],
  ] as const)('shows an own %s message as "%s", without a retry', (status, text) => {
    render(<MessageItem message={own({ status, id: status === 'sent' ? 1 : null })} own language="en" />);
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says nothing more than the time under an own message read already, when "Seen" is under a later one', () => {
    render(<MessageItem message={own({ status: 'sent', read_at: '2026-11-23T10:00:00.000Z' })} own language="en" />);
    expect(screen.getByText('hello')).toBeTruthy();
    expect(screen.queryByText('Sent')).toBeNull();
    expect(screen.queryByTestId('seen')).toBeNull();
  });

  it('says an own message waits for the connection while there is none', () => {
    useConnectionStore.getState().setStatus('connecting');
    render(<MessageItem message={own({ status: 'sending', id: null })} own language="en" />);
    expect(screen.getByText('Waiting for connection…')).toBeTruthy();
  });

  it('shows a failed message with its reason and retries it by its client id', async () => {
    const retryMessage = session.retryMessage.mockResolvedValue({ status: 'sent' as const, message: message(1) });
    const failed = own({ id: null, status: 'failed', error: 'Recipient not found.' });
    render(<MessageItem message={failed} own language="en" />);

    expect(screen.getByText('Not sent: Recipient not found.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retryMessage).toHaveBeenCalledExactlyOnceWith(failed.client_id);
  });

  it('a message refused for good shows why and Remove, never Retry (asking again would be refused again)', async () => {
    session.retryMessage.mockClear();
    const refused = own({ id: null, status: 'failed', error: 'this person isn’t accepting messages from you.', refusal: 'not_allowed' });
    useThreadStore.getState().addLocal(refused);
    render(<MessageItem message={refused} own language="en" />);

    expect(screen.getByText('Not sent: this person isn’t accepting messages from you.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remove this unsent message' }));
    expect(useThreadStore.getState().threads[2]?.messages).toEqual([]);
    expect(session.retryMessage).not.toHaveBeenCalled();
  });

  it('says "Not sent" when no reason is known', () => {
    render(<MessageItem message={own({ id: null, status: 'failed', error: null })} own language="en" />);
    expect(screen.getByText('Not sent')).toBeTruthy();
  });

  it('shows no delivery status on the other person’s messages', () => {
    render(<MessageItem message={fromServer(message(3))} own={false} language="en" />);
    expect(screen.getByText('message 3')).toBeTruthy();
    expect(screen.queryByText('Sent')).toBeNull();
  });

  it('renders the text as typed, never as HTML', () => {
    const text = '<img src=x onerror="alert(1)"> <b>bold</b>\nsecond line';
    const { container } = render(<MessageItem message={fromServer(message(4, { text }))} own={false} language="en" />);
    expect(container.querySelector('img, b')).toBeNull();
    expect(container.querySelector('p')?.textContent).toBe(text);
  });

  it('renders an image inline with its size reserved, lazily, named by its alt text', () => {
    const attachment = { id: 'a1', name: 'cat.png', mime_type: 'image/png', size: 2048, width: 800, height: 600, url: '/api/uploads/a1/cat.png' };
    render(<MessageItem message={fromServer(message(5, { text: '', attachment }))} own={false} language="en" />);
    const image = screen.getByRole('img', { name: 'Image: cat.png' }) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('/api/uploads/a1/cat.png');
    expect(image.getAttribute('width')).toBe('800');
    expect(image.getAttribute('height')).toBe('600');
    expect(image.getAttribute('loading')).toBe('lazy');
    expect(image.style.aspectRatio).toBe('800 / 600');
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('renders any other file as a download link with its name and size, opened safely', () => {
    const attachment = { id: 'a2', name: 'report.pdf', mime_type: 'application/pdf', size: 1536, width: null, height: null, url: '/api/uploads/a2/report.pdf' };
    const { container } = render(<MessageItem message={fromServer(message(6, { text: 'the report', attachment }))} own={false} language="en" />);
    const link = screen.getByRole('link', { name: /^Download report\.pdf / });
    expect(link.getAttribute('href')).toBe('/api/uploads/a2/report.pdf');
    expect(link.getAttribute('download')).toBe('report.pdf');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.textContent).toContain('report.pdf');
    expect(link.textContent).toContain('1.5 kB');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('the report')).toBeTruthy();
  });
});
