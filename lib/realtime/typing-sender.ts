// The sending side of typing: a signal at the first keystroke, renewed every TYPING_REFRESH_MS
// while the person keeps typing (so a receiver's expiry never fires mid-sentence), and `false`
// TYPING_IDLE_MS after the last keystroke, or at once when the message is sent, the box is emptied
// or left, or another conversation is opened. One conversation at a time: there is one composer.
import { TYPING_IDLE_MS, TYPING_REFRESH_MS, type TypingPayload } from '@/lib/contract';

export interface TypingSender {
  /** The text in the box to `peerId` changed; `hasText`: something other than blanks is there. */
  input(peerId: number, hasText: boolean): void;
  /** Typing to `peerId` stopped (sent, box left); no-op if not typing to them. */
  stop(peerId: number): void;
  /** The session ends: a last `false` if typing, and no timer left behind. */
  dispose(): void;
}

export interface TypingSenderOptions {
  emit: (payload: TypingPayload) => void;
  refreshMs?: number;
  idleMs?: number;
}

export function createTypingSender({ emit, refreshMs = TYPING_REFRESH_MS, idleMs = TYPING_IDLE_MS }: TypingSenderOptions): TypingSender {
  let active: number | null = null;
  let refresh: ReturnType<typeof setInterval> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;

  function stop(peerId: number | null = active): void {
    if (active === null || peerId !== active) return;
    clearInterval(refresh);
    clearTimeout(idle);
    active = null;
    emit({ user_id: peerId, typing: false });
  }

  function start(peerId: number): void {
    active = peerId;
    emit({ user_id: peerId, typing: true });
    refresh = setInterval(() => emit({ user_id: peerId, typing: true }), refreshMs);
  }

  return {
    input(peerId, hasText) {
      if (!hasText) return stop(peerId);
      if (active !== peerId) {
        stop();
        start(peerId);
      }
      clearTimeout(idle);
      idle = setTimeout(() => stop(peerId), idleMs);
    },
    stop,
    dispose: () => stop(),
  };
}
