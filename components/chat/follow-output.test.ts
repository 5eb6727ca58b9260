import { describe, expect, it } from 'vitest';
import { addedAtEnd, createFollowStreak, followFor } from './follow-output';

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

describe('counting the messages added at the end', () => {
  const before = { length: 50, offset: 0, epoch: 0 };

  it('counts what came after the reader’s messages, also when it lands before the user’s own unsent one', () => {
    expect(addedAtEnd(before, { ...before, length: 51 })).toBe(1);
    expect(addedAtEnd(before, { ...before, length: 550 })).toBe(500);
  });

  it('does not count older pages put in front, nor a message taken away', () => {
    expect(addedAtEnd(before, { length: 100, offset: 50, epoch: 0 })).toBe(0);
    expect(addedAtEnd(before, { length: 101, offset: 50, epoch: 0 })).toBe(1);
    expect(addedAtEnd(before, { ...before, length: 49 })).toBe(0);
  });

  it('after the thread started over, counts the growth alone', () => {
    expect(addedAtEnd({ length: 50, offset: 30, epoch: 0 }, { length: 60, offset: 0, epoch: 1 })).toBe(10);
  });
});

describe('the follow streak', () => {
  it('runs from the last follow, and the reader’s own scrolling ends it', () => {
    let clock = 1_000;
    const streak = createFollowStreak(() => clock);
    expect(streak.sinceFollowedMs()).toBe(Infinity);
    streak.followed();
    clock += 60;
    expect(streak.sinceFollowedMs()).toBe(60);
    streak.readerScrolled();
    expect(followFor({ ...at, isAtBottom: false, added: 500, sinceFollowedMs: streak.sinceFollowedMs() })).toBe(false);
  });
});
