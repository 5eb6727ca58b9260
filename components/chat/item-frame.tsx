import { useEffect, useRef, type ReactNode } from 'react';
import { useViewStore } from '@/lib/stores/view-store';
import styles from './item-frame.module.css';

/** How long a message must stay on screen to count as seen (the newest one, or any unread one). */
export const SEEN_AFTER_MS = 400;

/** Most of it in view, or (taller than half the list) half the list's height of it. */
const onScreen = (entry: IntersectionObserverEntry) =>
  entry.isIntersecting && (entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= (entry.rootBounds?.height ?? Infinity) / 2);

/**
 * One message's place in the list. An unread message of the other person's (`watchId`) that
 * stays on screen a moment is seen: read marking reads the conversation up to it
 * (lib/realtime/read-marking.ts), so the badges fall as the reader scrolls down.
 */
export function ItemFrame({ peerId, watchId, children }: { peerId: number; watchId: number | null; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (watchId === null || !element || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The scroller clips what it does not show, so the page's viewport is the right root.
    const observer = new IntersectionObserver(
      ([entry]) => {
        clearTimeout(timer);
        if (entry && onScreen(entry)) timer = setTimeout(() => useViewStore.getState().noteSeen(peerId, watchId), SEEN_AFTER_MS);
      },
      { threshold: [0, 0.5, 1] },
    );
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [peerId, watchId]);
  return (
    <div ref={ref} className={styles.item}>
      {children}
    </div>
  );
}

