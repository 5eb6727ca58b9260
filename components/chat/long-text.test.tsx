import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { useViewStore } from '@/lib/stores/view-store';
import { LongText } from './long-text';

// jsdom lays nothing out: a collapsed box says its text is taller than it when the text says "long".
const heights = {
  scrollHeight: function (this: HTMLElement) {
    return this.textContent?.startsWith('long') ? 900 : 40;
  },
  clientHeight: function (this: HTMLElement) {
    return this.dataset.collapsed === 'true' ? 288 : heights.scrollHeight.call(this);
  },
};
const saved = Object.keys(heights).map((key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)] as const);

describe('a long message', () => {
  beforeAll(() => {
    for (const [key, get] of Object.entries(heights)) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get() { return get.call(this); } });
  });
  afterAll(() => {
    for (const [key, descriptor] of saved) if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
  });
  afterEach(() => {
    cleanup();
    useViewStore.setState({ expanded: {} });
  });

  it('shows its first lines with "Read more", opens in full and closes again, and stays open when remounted', async () => {
    await initI18n('en');
    const user = userEvent.setup();
    const { unmount } = render(<LongText text="long text…" messageKey="2:a" />);
    const more = screen.getByRole('button', { name: 'Read more' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    const box = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(box.dataset.collapsed).toBe('true');

    await user.click(more);
    expect(box.dataset.collapsed).toBe('false');
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');

    // Scrolled out of the virtualised list and back.
    unmount();
    render(<LongText text="long text…" messageKey="2:a" />);
    // Closed from far down the text: the toggle comes back into view (jsdom has no scrolling).
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    await user.click(screen.getByRole('button', { name: 'Show less' }));
    const less = screen.getByRole('button', { name: 'Read more' });
    await vi.waitFor(() => expect(scrollIntoView.mock.contexts).toEqual([less]));
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  });

  it('says so in Spanish and French', async () => {
    const user = userEvent.setup();
    for (const [language, more, less] of [['es', 'Leer más', 'Mostrar menos'], ['fr', 'Lire la suite', 'Afficher moins']] as const) {
      await initI18n(language);
      render(<LongText text="long text…" messageKey={`2:${language}`} />);
      await user.click(screen.getByRole('button', { name: more }));
      expect(screen.getByRole('button', { name: less })).toBeTruthy();
      cleanup();
    }
  });

  it('has no toggle when all of it fits', async () => {
    await initI18n('en');
    render(<LongText text="short" messageKey="2:b" />);
    expect(screen.getByText('short')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
