import { useEffect, useRef, type PointerEvent, type MouseEvent } from 'react';

/** How long a finger stays down, still, before it counts as a long press (as on Android and iOS). */
export const LONG_PRESS_MS = 500;
/** How far the finger may wander meanwhile: further is a scroll. */
const SLOP_PX = 10;

/**
 * A touch held still on the element: `onLongPress` once the time has passed. Lifting the finger,
 * moving it (the list scrolling) or the browser taking the gesture over cancels it; a mouse or a
 * pen never starts one. The long press that fired also keeps the browser's own menu away.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const latest = useRef(onLongPress);
  useEffect(() => {
    latest.current = onLongPress;
  });

  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  useEffect(() => cancel, []);

  return {
    onPointerDown(event: PointerEvent) {
      cancel();
      fired.current = false;
      // A link keeps the browser's own long press (open, copy or share the address).
      if (event.pointerType !== 'touch' || (event.target as Element).closest?.('a')) return;
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        fired.current = true;
        latest.current();
      }, LONG_PRESS_MS);
    },
    onPointerMove(event: PointerEvent) {
      const from = start.current;
      if (from && Math.hypot(event.clientX - from.x, event.clientY - from.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    // The browser's sign of a long press, which may come before the timer: one menu, ours.
    onContextMenu(event: MouseEvent) {
      if (!fired.current && !start.current) return;
      event.preventDefault();
      if (fired.current) return;
      cancel();
      fired.current = true;
      latest.current();
    },
  };
}
