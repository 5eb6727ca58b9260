// The main area's first screen (the conversation list, or the conversation the address names) is
// painted: what can wait for it waits for it, so that it never competes with what the person
// came to see. The real-time connection waits here (lib/socket/socket-service.ts): the list comes
// over HTTP, and anything that happens meanwhile reaches the page through the connection's catch-up.

/** The longest anything waits for the first screen: a screen that never shows must not hold it back. */
export const FIRST_SCREEN_WAIT_MS = 2_000;

let markShown: () => void = () => {};
let shown = false;
const whenShown = new Promise<void>((resolve) => {
  markShown = () => {
    shown = true;
    resolve();
  };
});

/** The main screen calls this once its first frame is painted. */
export function firstScreenShown(): void {
  if (!shown) markShown();
}

/** Resolves once the first screen is painted, or after FIRST_SCREEN_WAIT_MS at the latest. */
export function afterFirstScreen(capMs = FIRST_SCREEN_WAIT_MS): Promise<void> {
  if (shown) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, capMs);
    void whenShown.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Runs `then` after the frame being prepared is painted (a task queued from its animation frame). */
export function afterNextPaint(then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(then, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
