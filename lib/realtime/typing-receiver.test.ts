import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPING_EXPIRY_MS } from '@/lib/contract';
import { useTypingStore } from '@/lib/stores/typing-store';
import { createTypingReceiver, type TypingReceiver } from './typing-receiver';

let receiver: TypingReceiver;
const typingNow = () => Object.keys(useTypingStore.getState().typing).map(Number);

describe('typing receiver', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    receiver = createTypingReceiver();
  });
  afterEach(() => {
    receiver.stop();
    vi.useRealTimers();
  });

  it('shows who is typing until they say they stopped', () => {
    receiver.receive({ conversation_id: 1, user_id: 2, typing: true });
    receiver.receive({ conversation_id: 1, user_id: 3, typing: true });
    expect(typingNow()).toEqual([2, 3]);
    receiver.receive({ conversation_id: 1, user_id: 2, typing: false });
    expect(typingNow()).toEqual([3]);
  });

  it('forgets a signal that is not renewed, so a lost "stopped" clears by itself', () => {
    receiver.receive({ conversation_id: 1, user_id: 2, typing: true });
    vi.advanceTimersByTime(TYPING_EXPIRY_MS - 1);
    receiver.receive({ conversation_id: 1, user_id: 2, typing: true });
    vi.advanceTimersByTime(TYPING_EXPIRY_MS - 1);
    expect(typingNow()).toEqual([2]);
    vi.advanceTimersByTime(1);
    expect(typingNow()).toEqual([]);
  });

  it('clears when their message arrives, and everything when the session stops', () => {
    receiver.receive({ conversation_id: 1, user_id: 2, typing: true });
    receiver.receive({ conversation_id: 1, user_id: 3, typing: true });
    receiver.messageFrom(2);
    expect(typingNow()).toEqual([3]);
    receiver.stop();
    expect(typingNow()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
