import { describe, expect, it } from 'vitest';
import { attachmentUrl } from './attachment-url';

describe('attachmentUrl', () => {
  it('keeps the server-relative URL when the API is on the page origin', () => {
    expect(attachmentUrl('/api/uploads/abc/cat.png', '/api')).toBe('/api/uploads/abc/cat.png');
  });

  it('points at the API origin in a split deployment', () => {
    expect(attachmentUrl('/api/uploads/abc/cat%20pic.png', 'https://api.parley.test/api')).toBe(
      'https://api.parley.test/api/uploads/abc/cat%20pic.png',
    );
  });

  it('leaves an absolute URL alone', () => {
    expect(attachmentUrl('https://cdn.parley.test/x.png', 'https://api.parley.test/api')).toBe('https://cdn.parley.test/x.png');
  });
});
