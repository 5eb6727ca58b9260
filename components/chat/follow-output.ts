// Whether the thread's list follows messages added to its end (Virtuoso's followOutput), as a
// pure rule: message-list.tsx feeds it what the list knows.

/**
 * A batch that lands this soon after one the list followed is the same catch-up (sync pages come
 * tens of milliseconds apart): it is followed too, even though the list, still measuring the last
 * batch's messages, may not report itself at the bottom yet.
 */
const FOLLOW_STREAK_MS = 1_000;

/**
 * Whether the list follows messages just added to its end, and how: one glides in; a batch (a
 * catch-up page of hundreds) jumps, or the next batch would land while the glide is still on its
 * way. Followed while the newest message is on screen, and through a catch-up's batches that come
 * one after another; the user's own new message always. Not for a window's newer pages (`paged`):
 * the reader scrolled toward them. `added` counts the messages after the previous last one only
 * (older pages put in front add none).
 */
export function followFor({
  isAtBottom,
  added,
  paged,
  ownSending,
  sinceFollowedMs,
}: {
  isAtBottom: boolean;
  added: number;
  paged: boolean;
  ownSending: boolean;
  sinceFollowedMs: number;
}): false | 'auto' | 'smooth' {
  if (paged || added === 0) return false;
  const glide = added > 1 ? 'auto' : 'smooth';
  if (ownSending) return isAtBottom ? glide : 'auto';
  if (isAtBottom) return glide;
  return added > 1 && sinceFollowedMs < FOLLOW_STREAK_MS ? 'auto' : false;
}

/** Where the list stood when messages were last counted (addedAtEnd). */
export interface ListCount {
  /** How many messages. */
  length: number;
  /** How many were put in front of the message that was first when the list appeared. */
  offset: number;
  /** Bumped when that message went (the thread started over): offsets before it mean nothing now. */
  epoch: number;
}

/**
 * How many messages a change added after the ones the reader had: the growth, less what was put in
 * front (older pages). Counted so, messages that land before the user's own unsent ones (always
 * last) still count: the peer's reply while the user's message is sending is followed.
 */
export function addedAtEnd(before: ListCount, now: ListCount): number {
  const inFront = now.epoch === before.epoch ? now.offset - before.offset : 0;
  return Math.max(0, now.length - before.length - inFront);
}

/**
 * When the list last followed new messages, for FOLLOW_STREAK_MS. The reader's own scrolling
 * (wheel, touch, keys) ends the streak: scrolled up during a catch-up, they stay where they went.
 */
export function createFollowStreak(now: () => number = () => performance.now()) {
  let followedAt = -Infinity;
  return {
    followed(): void {
      followedAt = now();
    },
    readerScrolled(): void {
      followedAt = -Infinity;
    },
    sinceFollowedMs(): number {
      return now() - followedAt;
    },
  };
}
