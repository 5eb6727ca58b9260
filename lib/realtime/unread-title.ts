// The unread total in the tab title, "(3) Parley", so it shows from other tabs too.
import { useCounterStore } from '@/lib/stores/counter-store';

export const APP_TITLE = 'Parley';

export function unreadTitle(count: number, base: string = APP_TITLE): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

/**
 * Keeps document.title in step with the unread count; returns the function that stops it and
 * puts the base title back. Call from an effect: `useEffect(() => syncUnreadTitle(), [])`.
 */
export function syncUnreadTitle(base: string = APP_TITLE): () => void {
  const apply = (count: number) => {
    document.title = unreadTitle(count, base);
  };
  apply(useCounterStore.getState().unread);
  const unsubscribe = useCounterStore.subscribe((state, previous) => {
    if (state.unread !== previous.unread) apply(state.unread);
  });
  return () => {
    unsubscribe();
    document.title = base;
  };
}
