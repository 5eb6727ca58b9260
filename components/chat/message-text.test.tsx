import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { linkParts, MessageText } from './message-text';

describe('message text links', () => {
  afterEach(cleanup);

  it('finds http(s) and mailto links, a bare domain as http, and leaves the rest text', () => {
    expect(linkParts('see https://example.com/a?b=1, or mail ada@example.org.')).toEqual([
      { text: 'see ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: ', or mail ' },
      { text: 'ada@example.org', href: 'mailto:ada@example.org' },
      { text: '.' },
    ]);
    expect(linkParts('www.example.fr')).toEqual([{ text: 'www.example.fr', href: 'http://www.example.fr' }]);
  });

  it('never links other schemes', () => {
    expect(linkParts('javascript:alert(1) and ftp://files.example.com and data:text/html,x')).toEqual([
      { text: 'javascript:alert(1) and ftp://files.example.com and data:text/html,x' },
    ]);
  });

  it('renders links that open in a new tab without opener, referrer or endorsement, and markup as text', () => {
    render(<MessageText text={'<b>hi</b> https://example.com'} />);
    const link = screen.getByRole('link', { name: 'https://example.com' });
    expect(link.getAttribute('href')).toBe('https://example.com');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(screen.getByText('<b>hi</b>', { exact: false })).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
  });
});
