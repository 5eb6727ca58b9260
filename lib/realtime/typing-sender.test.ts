import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPING_IDLE_MS, TYPING_REFRESH_MS, type TypingPayload } from '@/lib/contract';
import { createTypingSender, type TypingSender } from './typing-sender';

let sent: TypingPayload[];
let sender: TypingSender;
const signals = () => sent.map(({ user_id, typing }) => `${user_id}:${typing}`);

describe('typing sender', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    sender = createTypingSender({ emit: (payload) => sent.push(payload) });
  });
  afterEach(() => {
    sender.dispose();
    vi.useRealTimers();
  });

  it('signals at the first keystroke, then only every refresh interval while typing goes on', () => {
    sender.input(2, true);
    expect(signals()).toEqual(['2:true']);
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(290);
      sender.input(2, true);
    }
    // 2.9 s of keystrokes: still the one signal.
    expect(signals()).toEqual(['2:true']);
    vi.advanceTimersByTime(TYPING_REFRESH_MS);
    expect(signals()).toEqual(['2:true', '2:true']);
  });

  it('says it stopped after a pause in typing, once', () => {
    sender.input(2, true);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    sender.input(2, true);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    expect(signals().at(-1)).toBe('2:true');
    vi.advanceTimersByTime(1);
    expect(signals().at(-1)).toBe('2:false');
    const count = sent.length;
    vi.advanceTimersByTime(TYPING_REFRESH_MS * 5);
    expect(sent).toHaveLength(count);
  });

  it('says it stopped at once when the box is emptied, left, or the message sent', () => {
    sender.input(2, true);
    sender.input(2, false);
    sender.input(2, true);
    sender.stop(2);
    sender.stop(2);
    expect(signals()).toEqual(['2:true', '2:false', '2:true', '2:false']);
  });

  it('ignores a stop for someone it is not typing to, and blanks typed into an empty box', () => {
    sender.input(2, false);
    sender.stop(3);
    expect(signals()).toEqual([]);
    sender.input(2, true);
    sender.stop(3);
    expect(signals()).toEqual(['2:true']);
  });

  it('moving to another conversation stops the first before starting the second', () => {
    sender.input(2, true);
    sender.input(3, true);
    expect(signals()).toEqual(['2:true', '2:false', '3:true']);
    vi.advanceTimersByTime(TYPING_REFRESH_MS);
    expect(signals().at(-1)).toBe('3:true');
  });

  it('ends with a last stop when the session ends, and leaves no timer', () => {
    sender.input(2, true);
    sender.dispose();
    expect(signals()).toEqual(['2:true', '2:false']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
