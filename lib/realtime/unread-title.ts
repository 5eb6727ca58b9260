// The unread total in the tab title, "(3) Parley", so it shows from other tabs too.
import { useCounterStore } from '@/lib/stores/counter-store';

export const APP_TITLE = 'Parley';

export function unreadTitle(count: number, base: string = APP_TITLE): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

/**
 * Keeps document.title in step with the unread count; returns the function that stops it and
 * puts the base title back. Call from an effect: `useEffect(() => syncUnreadTitle(), [])`.
 * Opening a conversation changes the page (/main to /main/<id>), and the router then puts the
 * page's own <title> ("Parley") back into <head>: the count is put back at once.
 */
export function syncUnreadTitle(base: string = APP_TITLE): () => void {
  const apply = () => {
    const title = unreadTitle(useCounterStore.getState().unread, base);
    if (document.title !== title) document.title = title;
  };
  apply();
  const unsubscribe = useCounterStore.subscribe((state, previous) => {
    if (state.unread !== previous.unread) apply();
  });
  const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(apply);
  observer?.observe(document.head, { childList: true, subtree: true, characterData: true });
  return () => {
    observer?.disconnect();
    unsubscribe();
    document.title = base;
  };
}
