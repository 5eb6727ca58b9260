import { describe, expect, it } from 'vitest';
import { followFor } from './follow-output';

const at = { isAtBottom: true, added: 1, paged: false, ownSending: false, sinceFollowedMs: Infinity };

describe('following new messages at the end of the thread', () => {
  it('glides to one new message, jumps to a batch, while the newest is on screen', () => {
    expect(followFor(at)).toBe('smooth');
    expect(followFor({ ...at, added: 500 })).toBe('auto');
  });

  it('stays put when scrolled up, except for the user’s own message', () => {
    expect(followFor({ ...at, isAtBottom: false })).toBe(false);
    expect(followFor({ ...at, isAtBottom: false, ownSending: true })).toBe('auto');
  });

  it('follows a catch-up’s batches one after another, though the list has not settled at the bottom since the last one', () => {
    expect(followFor({ ...at, isAtBottom: false, added: 500, sinceFollowedMs: 60 })).toBe('auto');
    // Not a single message, and not long after: the user scrolled up meanwhile.
    expect(followFor({ ...at, isAtBottom: false, added: 1, sinceFollowedMs: 60 })).toBe(false);
    expect(followFor({ ...at, isAtBottom: false, added: 500, sinceFollowedMs: 5_000 })).toBe(false);
  });

  it('not for older pages put in front (nothing added at the end), even within a catch-up', () => {
    expect(followFor({ ...at, added: 0 })).toBe(false);
    expect(followFor({ ...at, isAtBottom: false, added: 0, sinceFollowedMs: 60 })).toBe(false);
  });

  it('never for a window’s newer pages: the reader scrolled toward them', () => {
    expect(followFor({ ...at, paged: true })).toBe(false);
    expect(followFor({ ...at, paged: true, ownSending: true })).toBe(false);
  });
});
