// "Alice is typing…" on the receiving side: `typing` events into the typing store, each `true`
// forgotten after TYPING_EXPIRY_MS unless renewed, so a lost `false` (a closed laptop, a dropped
// connection) never leaves the indicator on. A message from the person clears it at once.
import { TYPING_EXPIRY_MS, type TypingEventPayload } from '@/lib/contract';
import { useTypingStore } from '@/lib/stores/typing-store';

export interface TypingReceiver {
  receive(payload: TypingEventPayload): void;
  /** `userId`'s message arrived: whatever they were typing is sent. */
  messageFrom(userId: number): void;
  /** The session ends: no timer left behind, nobody typing. */
  stop(): void;
}

export function createTypingReceiver(expiryMs = TYPING_EXPIRY_MS): TypingReceiver {
  const expiries = new Map<number, ReturnType<typeof setTimeout>>();
  const store = () => useTypingStore.getState();

  function clear(userId: number): void {
    clearTimeout(expiries.get(userId));
    expiries.delete(userId);
    store().setTyping(userId, false);
  }

  return {
    receive({ user_id: userId, typing }) {
      if (!typing) return clear(userId);
      clearTimeout(expiries.get(userId));
      expiries.set(userId, setTimeout(() => clear(userId), expiryMs));
      store().setTyping(userId, true);
    },
    messageFrom: clear,
    stop() {
      for (const timer of expiries.values()) clearTimeout(timer);
      expiries.clear();
      store().reset();
    },
  };
}
